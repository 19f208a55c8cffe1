import { userSummaries } from '../accounts/repository.js';
import type { WorkerJob } from '../delivery/jobs.js';
import { activeLabApprovers } from '../labs/approval-repository.js';
import type { Config } from '../shared/config.js';
import type { Db } from '../shared/db/database.js';
import { dec } from '../shared/decimal.js';
import { createMailer, type Mailer, type OutgoingMail } from '../shared/mail.js';
import * as notices from './approval-repository.js';
import { orderAppUrl } from './render.js';
import { findOrder, type OrderRow } from './repository.js';

// Mails to approvers (docs/ordering.md): the notices written with a request that needs approval
// (src/order-requests/approval.ts) are sent by the worker, one mail per notice, and deleted once the SMTP server
// took it (at least once). A lease keeps two workers from sending
// one notice together; a failed one waits a minute. A notice whose request is gone or no longer CREATED, or whose person is no longer an active
// approver or manager of the lab, is dropped unsent. Without SMTP_URL, notices are dropped: email is off.

const INTERVAL_MS = 15_000;
const LEASE_MS = 10 * 60_000;
const RETRY_MS = 60_000;
const BATCH = 100;

export interface ApprovalMailDeps {
  db: Db;
  config: Config;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** Sends what is due; returns how many mails the SMTP server accepted. */
export async function sendApprovalMails(deps: { db: Db; appUrl: string; mailer: Mailer; log: ApprovalMailDeps['log'] }, now = new Date()) {
  const { db } = deps;
  const at = now.toISOString();
  const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
  let sent = 0;
  for (;;) {
    const due = await notices.dueApprovalNotices(db, at, BATCH);
    if (due.length === 0) return sent;
    for (const notice of due) {
      if (!(await notices.claimApprovalNotice(db, notice.id, at, leaseUntil))) continue;
      const order = await findOrder(db, notice.order_request_id);
      const approver = order && (await activeLabApprovers(db, order.lab_id)).find((a) => a.user_id === notice.user_id);
      if (order?.status !== 'CREATED' || !approver) {
        await notices.deleteApprovalNotices(db, [notice.id]);
        continue;
      }
      const requester = (await userSummaries(db, [order.requested_by])).get(order.requested_by);
      try {
        await deps.mailer.send(approvalMail(deps.appUrl, approver, requester, order));
        await notices.deleteApprovalNotices(db, [notice.id]);
        sent++;
      } catch (err) {
        deps.log.warn({ err, notice: notice.id }, 'an approval mail could not be sent; it is tried again in a minute');
        await notices.postponeApprovalNotice(db, notice.id, new Date(now.getTime() + RETRY_MS).toISOString());
      }
    }
    if (due.length < BATCH) return sent;
  }
}

/** The mail's text: who asks for what, how much, and the request's link. */
export function approvalMail(
  appUrl: string,
  to: { email: string; first_name: string; lab_name: string },
  requester: { first_name: string; last_name: string } | undefined,
  order: OrderRow,
): OutgoingMail {
  const who = requester ? `${requester.first_name} ${requester.last_name}`.trim() : 'Someone';
  const total = dec(order.unit_price)
    .mul(order.quantity)
    .toFixed(order.unit_price.split('.')[1]?.length ?? 0);
  return {
    to: to.email,
    subject: `Labstock: approval requested for ${order.item_name} (${to.lab_name})`,
    text: [
      `Hello ${to.first_name},`,
      '',
      `${who} asks for approval of an order request in ${to.lab_name}:`,
      '',
      `- ${order.quantity} × ${order.item_name} (${order.vendor_name} ${order.catalog_number})`,
      `- total ${total} ${order.currency}`,
      '',
      'Approve or cancel it here:',
      '',
      orderAppUrl(appUrl, order.id),
      '',
      'You get this mail as an approver or manager of the lab. GET /order-requests/awaiting-approval lists every request waiting for you.',
    ].join('\n'),
  };
}

/** The approval mails as a job of the worker (src/cli/serve.ts hands it in beside the alerts job). */
export function approvalMailJob(deps: ApprovalMailDeps): WorkerJob {
  const { db, config, log } = deps;
  const mailer = createMailer(config.mail, log);
  return {
    name: 'approval-mail',
    intervalMs: INTERVAL_MS,
    async run() {
      if (!mailer.enabled) {
        await notices.deleteApprovalNotices(db, await notices.allApprovalNoticeIds(db, 1000));
        return;
      }
      const sent = await sendApprovalMails({ db, appUrl: config.appUrl, mailer, log });
      if (sent > 0) log.info({ sent }, 'approval mails sent');
    },
    close() {
      mailer.close();
    },
  };
}
