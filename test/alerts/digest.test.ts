import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertOrgMembership } from '../../src/accounts/repository.js';
import { createToken } from '../../src/accounts/service.js';
import { systemActor } from '../../src/shared/actor.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { inDays, labMember, ok } from './_setup.js';

// The daily digest (docs/alerts.md) read from a real SMTP server in this process: one email per person who wants it,
// listing their labs' alerts with the items' links; nothing for people who opted out, left the lab or were
// deactivated; at most one a day; a send that fails is tried again and not lost.

describe('reminder digests by email', () => {
  let h: Harness;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
    await smtp.close();
  });

  const link = (id: string) => `http://labstock.test/app/inventory/items/${id}`;
  const mailTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));

  it("sends each member of the item's lab who wants it one digest with the links; nothing to who opted out, was deactivated, or is not in the lab", async () => {
    const rita = await labMember(h, h.a.orgId, h.a.legacyLab.id, 'rita@example.org');
    const ritaToken = (await createToken(h.deps.db, systemActor('cli'), { userId: rita.id, organizationId: h.a.orgId })).token;
    await ok(h, ritaToken, 'PUT', '/user/notifications', { email_digest: false });
    const gone = await labMember(h, h.a.orgId, h.a.legacyLab.id, 'gone@example.org');
    await ok(h, h.a.admin.token, 'PUT', `/organization/users/${gone.id}`, { active: false });

    const expiring = await ok(h, h.a.member.token, 'POST', '/inventory-items', {
      lab_id: h.a.legacyLab.id,
      name: 'Tris buffer',
      auto_reminder: '2WEEK',
      expiration_date: inDays(4),
    });
    const low = await ok(h, h.a.member.token, 'POST', '/inventory-items', { lab_id: h.a.legacyLab.id, name: 'Gloves M', quantity: '1' });
    await ok(h, h.a.member.token, 'PUT', `/inventory-items/${low.id}/minimum-quantity`, { minimum_quantity: '10' });
    // In the lab the member does not belong to: the member hears nothing of it.
    const elsewhere = await ok(h, h.a.admin.token, 'POST', '/inventory-items', { lab_id: h.a.otherLab.id, name: 'Hidden', quantity: '0' });
    await ok(h, h.a.admin.token, 'PUT', `/inventory-items/${elsewhere.id}/minimum-quantity`, { minimum_quantity: '1' });

    const w = await h.startWorker({ SMTP_URL: smtp.url, ALERT_SCAN_INTERVAL: '1h' });
    await w.idle();
    await smtp.waitFor(1);
    await w.runJobs();

    const mine = mailTo('member-a@example.org');
    expect(mine).toHaveLength(1);
    const text = mine[0]!.text;
    expect(mine[0]!.subject).toBe('Labstock: 2 inventory alerts');
    expect(text).toContain(link(expiring.id));
    expect(text).toContain(link(low.id));
    expect(text).toContain('Tris buffer');
    expect(text).toContain(`expires ${inDays(4)}`);
    expect(text).toContain('quantity 1 is below its minimum 10');
    expect(text).not.toContain(elsewhere.id);
    expect(text).not.toContain('Hidden');
    // The org admin is in none of these labs; Rita opted out; the deactivated member and the outsider get nothing.
    expect(smtp.messages.flatMap((m) => m.to).sort()).toEqual(['member-a@example.org']);
    expect(
      await h.deps.db.selectFrom('alert_notices').select('user_id').where('user_id', 'in', [rita.id, gone.id, h.a.member.id]).execute(),
    ).toEqual([]);

    // A further alert the same day waits for tomorrow's digest: no second email now, its notice is kept.
    const later = await ok(h, h.a.member.token, 'POST', '/inventory-items', {
      lab_id: h.a.legacyLab.id,
      name: 'Later buffer',
      auto_reminder: '1WEEK',
      expiration_date: inDays(1),
    });
    await w.runJobs();
    await w.runJobs();
    expect(mailTo('member-a@example.org')).toHaveLength(1);
    const kept = await h.deps.db.selectFrom('alert_notices').select('user_id').where('user_id', '=', h.a.member.id).execute();
    expect(kept).toHaveLength(1);
    expect(later.id).toBeTruthy();
  });

  it('a digest whose send fails is kept and goes out at a later scan', async () => {
    const closed = await startSmtp();
    const deadUrl = closed.url;
    await closed.close();
    const item = await ok(h, h.b.member.token, 'POST', '/inventory-items', {
      lab_id: h.b.legacyLab.id,
      name: 'Acetone',
      auto_reminder: '1WEEK',
      expiration_date: inDays(2),
    });
    const failing = await h.startWorker({ SMTP_URL: deadUrl, ALERT_SCAN_INTERVAL: '1h' });
    await failing.idle();
    await failing.stop();
    expect(mailTo('member-b@example.org')).toHaveLength(0);
    const pending = await h.deps.db.selectFrom('alert_notices').select('alert_id').where('user_id', '=', h.b.member.id).execute();
    expect(pending).toHaveLength(1);

    const w = await h.startWorker({ SMTP_URL: smtp.url, ALERT_SCAN_INTERVAL: '1h' });
    await w.idle();
    const mails = mailTo('member-b@example.org');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Labstock: 1 inventory alert');
    expect(mails[0]!.text).toContain(link(item.id));
    expect(mails[0]!.text).not.toContain('Tris buffer');
  });
});

describe('the digest preference is per organization (issue 22)', () => {
  let h: Harness;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
    await smtp.close();
  });

  it("a person in two organizations who turns the digest off in one still gets the other's", async () => {
    const rita = await labMember(h, h.a.orgId, h.a.legacyLab.id, 'rita2@example.org');
    await upsertOrgMembership(h.deps.db, h.b.orgId, rita.id, 'member', new Date().toISOString());
    const inB = (await createToken(h.deps.db, systemActor('cli'), { userId: rita.id, organizationId: h.b.orgId })).token;
    await ok(h, inB, 'PUT', '/user/notifications', { email_digest: false });
    const low = await ok(h, h.a.member.token, 'POST', '/inventory-items', {
      lab_id: h.a.legacyLab.id,
      name: 'Pipette tips',
      quantity: '1',
    });
    await ok(h, h.a.member.token, 'PUT', `/inventory-items/${low.id}/minimum-quantity`, { minimum_quantity: '5' });
    const w = await h.startWorker({ SMTP_URL: smtp.url, ALERT_SCAN_INTERVAL: '1h' });
    await w.idle();
    await smtp.waitFor(2);
    await w.runJobs();
    const hers = smtp.messages.filter((m) => m.to.includes('rita2@example.org'));
    expect(hers).toHaveLength(1);
    expect(hers[0]!.text).toContain('Pipette tips');
  });
});
