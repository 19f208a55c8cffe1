import { itemAppUrl } from '../inventory/render.js';
import { activeLabMembers } from '../labs/members-repository.js';
import type { Db } from '../shared/db/database.js';
import type { Mailer, OutgoingMail } from '../shared/mail.js';
import * as repo from './repository.js';
import type { InventoryItemAlert } from './schemas.js';
import { ageInYears, type SdsReviewDetail } from './sds.js';

// The daily digest (docs/alerts.md): one email per person, at most once a day, listing the alerts of their labs
// that fired since their last one, each with the item's link. A person's notices are written with the alert
// (src/alerts/scan.ts) and deleted only once their digest is accepted by the SMTP server, so a failed send is
// tried again at the next scan (at least once). A lease keeps two workers from sending one digest together.

const DAY_MS = 86_400_000;
const LEASE_MS = 10 * 60_000;
const BATCH = 100;

export interface DigestDeps {
  db: Db;
  appUrl: string;
  mailer: Mailer;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

type Notice = Awaited<ReturnType<typeof repo.noticesOf>>[number];

export async function sendDigests(deps: DigestDeps, now = new Date()): Promise<number> {
  const { db } = deps;
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - DAY_MS).toISOString();
  const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
  let cursor = '';
  let sent = 0;
  for (;;) {
    const due = await repo.dueDigestUsers(db, cursor, BATCH, cutoff, at);
    if (due.length === 0) return sent;
    cursor = due.at(-1)!;
    await repo.ensurePreferences(db, due, at);
    const claimed = await repo.claimDigests(db, due, cutoff, at, leaseUntil);
    if (claimed.length === 0) continue;
    const notices = await repo.noticesOf(
      db,
      claimed.map((c) => c.user_id),
    );
    const members = await activeLabMembers(
      db,
      notices.map((n) => n.lab_id),
      claimed.map((c) => c.user_id),
    );
    const optedOut = new Set(
      (
        await repo.digestOptOuts(
          db,
          claimed.map((c) => c.user_id),
        )
      ).map((o) => `${o.user_id} ${o.organization_id}`),
    );
    const done: Notice[] = [];
    const delivered: string[] = [];
    const notSent: string[] = [];
    for (const { user_id } of claimed) {
      const own = notices.filter((n) => n.user_id === user_id);
      const memberOf = members.filter((m) => m.user_id === user_id);
      const readable = own.filter((n) => memberOf.some((m) => m.lab_id === n.lab_id) && !optedOut.has(`${user_id} ${n.organization_id}`));
      // Opted out in those organizations, or no longer in those labs (or deactivated): the notices are dropped.
      if (readable.length === 0) {
        done.push(...own);
        notSent.push(user_id);
        continue;
      }
      try {
        await deps.mailer.send(digestMail(deps.appUrl, memberOf[0]!, readable, now));
        done.push(...own);
        delivered.push(user_id);
      } catch (err) {
        deps.log.warn({ err, user: user_id }, 'a reminder digest could not be sent; it is tried again at the next scan');
        notSent.push(user_id);
      }
    }
    await repo.deleteNotices(db, done);
    await repo.releaseDigests(db, delivered, at);
    await repo.releaseDigests(db, notSent, null);
    sent += delivered.length;
  }
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const inWords = (date: string) => `${Number(date.slice(8, 10))} ${MONTHS[Number(date.slice(5, 7)) - 1]} ${date.slice(0, 4)}`;

const describe = (a: InventoryItemAlert | SdsReviewDetail, today: string): string =>
  a.cause === 'sds_review'
    ? `safety data sheet ${a.file_name}, revised ${inWords(a.revised_on)}, is ${ageInYears(a.revised_on, today)} years old (reviewed every ${a.review_years} years): ask the supplier for the current one`
    : a.cause === 'expiring'
      ? `expires ${a.expiration_date}${a.instance_ids.length > 1 ? ` (${a.instance_ids.length} instances)` : ''}, reminder ${a.auto_reminder}`
      : `quantity ${a.quantity} is below its minimum ${a.minimum_quantity}`;

/** The digest's text: per lab, each alert with the item's link. */
export function digestMail(appUrl: string, to: { email: string; first_name: string }, notices: Notice[], now = new Date()): OutgoingMail {
  const today = now.toISOString().slice(0, 10);
  const lines = [`Hello ${to.first_name},`, '', 'Reminders and alerts from your labs in Labstock:'];
  let lab = '';
  for (const n of notices) {
    if (n.lab_name !== lab) {
      lab = n.lab_name;
      lines.push('', `${lab}:`);
    }
    lines.push(
      `- ${n.item_name}: ${describe(JSON.parse(n.detail) as InventoryItemAlert | SdsReviewDetail, today)}`,
      `  ${itemAppUrl(appUrl, n.item_id)}`,
    );
  }
  lines.push('', 'You get this digest at most once a day. Turn it off with PUT /user/notifications {"email_digest": false}.');
  const count = notices.length;
  return { to: to.email, subject: `Labstock: ${count} inventory ${count === 1 ? 'alert' : 'alerts'}`, text: lines.join('\n') };
}
