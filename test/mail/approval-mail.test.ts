import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalMailJob } from '../../src/order-requests/approval-mail.js';
import { loadConfig } from '../../src/shared/config.js';
import { type ApprovalFixture, approvalFixture, putStatus, requestFor, setRole, setRule } from '../helpers/approvals.js';
import { type Harness, startHarness, TEST_ENV } from '../helpers/harness.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';

// Approvers are told by email (docs/ordering.md): a request that needs approval writes one notice per approver and
// manager in its own transaction; the worker's job mails them through a real SMTP server and deletes what was sent.

const noop = () => undefined;
const log = { info: noop, warn: noop, debug: noop };

let smtp: TestSmtp;
let h: Harness;
let f: ApprovalFixture;
beforeAll(async () => {
  smtp = await startSmtp();
  h = await startHarness({ SMTP_URL: smtp.url, MAIL_FROM: 'Labstock <labstock@lab.example>' });
  f = await approvalFixture(h);
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

const notices = () => h.deps.db.selectFrom('approval_notices').selectAll().orderBy('user_id').execute();
const emailOf = async (id: string) =>
  (await h.deps.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email;

async function runJob(config = h.config) {
  const job = approvalMailJob({ db: h.deps.db, config, log });
  try {
    await job.run();
  } finally {
    job.close?.();
  }
}

describe('approval mails', () => {
  it('no rule, no notice and no mail', async () => {
    await requestFor(h, f.requester.token, f.lab);
    expect(await notices()).toEqual([]);
    await runJob();
    expect(smtp.messages).toHaveLength(0);
  });

  it("one mail to each approver and manager of the lab (not the requester, not a member) with the request's link", async () => {
    await setRule(h, f.admin.token, f.lab.id, { rule: 'all' });
    const r = await requestFor(h, f.requester.token, f.lab, '12.50', 2);
    const pending = await notices();
    expect(pending.map((n) => n.user_id).sort()).toEqual([f.approver.id, f.manager.id].sort());
    expect(pending.every((n) => n.order_request_id === r.id)).toBe(true);

    await runJob();
    const mails = await smtp.waitFor(2);
    expect(mails.flatMap((m) => m.to).sort()).toEqual([await emailOf(f.approver.id), await emailOf(f.manager.id)].sort());
    for (const m of mails) {
      expect(m.from).toBe('labstock@lab.example');
      expect(m.subject).toContain(r.item_name);
      expect(m.text).toContain(r.app_url);
      expect(m.text).toContain('25.00 USD');
    }
    expect(await notices()).toEqual([]);
    // Nothing is sent twice.
    await runJob();
    expect(smtp.messages).toHaveLength(2);
  });

  it('an approver who requests is not mailed about their own request; the others are', async () => {
    smtp.messages.length = 0;
    await requestFor(h, f.approver.token, f.lab);
    expect((await notices()).map((n) => n.user_id)).toEqual([f.manager.id]);
    await runJob();
    expect((await smtp.waitFor(1)).map((m) => m.to[0])).toEqual([await emailOf(f.manager.id)]);
  });

  it('a notice is dropped unsent when the request was approved meanwhile, or its person is no longer an approver', async () => {
    smtp.messages.length = 0;
    const approved = await requestFor(h, f.requester.token, f.lab);
    expect((await putStatus(h, f.manager.token, approved.id, 'APPROVED')).statusCode).toBe(200);
    const demoted = await requestFor(h, f.requester.token, f.lab);
    expect((await setRole(h, f.admin.token, f.lab.id, f.approver.id, 'member')).statusCode).toBe(200);
    await runJob();
    expect(await notices()).toEqual([]);
    // Only the manager, about the request still waiting.
    const mails = await smtp.waitFor(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.messages).toHaveLength(1);
    expect(mails[0]!.text).toContain(demoted.app_url);
    expect((await setRole(h, f.admin.token, f.lab.id, f.approver.id, 'approver')).statusCode).toBe(200);
  });

  it('an SMTP failure keeps the notice for a later run; without SMTP_URL the worker drops them', async () => {
    smtp.messages.length = 0;
    await requestFor(h, f.requester.token, f.lab);
    const broken = loadConfig({ ...TEST_ENV, DATABASE_URL: h.database.url, SMTP_URL: 'smtp://127.0.0.1:1' });
    await runJob(broken);
    const kept = await notices();
    expect(kept).toHaveLength(2);
    expect(kept.every((n) => n.lease_until !== null)).toBe(true);
    const off = loadConfig({ ...TEST_ENV, DATABASE_URL: h.database.url });
    await runJob(off);
    expect(await notices()).toEqual([]);
    expect(smtp.messages).toHaveLength(0);
  });

  it("the harness's worker runs the job at start", async () => {
    smtp.messages.length = 0;
    await requestFor(h, f.requester.token, f.lab);
    const worker = await h.startWorker({ SMTP_URL: smtp.url });
    await worker.runJobs();
    expect((await smtp.waitFor(2)).length).toBe(2);
    expect(await notices()).toEqual([]);
  });
});
