import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanAlerts } from '../../src/alerts/scan.js';
import { ageInYears, reviewDueOn } from '../../src/alerts/sds.js';
import { pdf, upload } from '../api/attachments/_attachments.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { labMember, ok } from './_setup.js';

// Stale safety data sheets in the digest (docs/hazards.md, docs/alerts.md), read from a real SMTP server in this
// process: an item whose newest sheet, its own or its type's, is SDS_REVIEW_YEARS (5) old or more is listed in words
// with the sheet's age and the item's link; a fresher sheet of the item's own keeps it off; a renewed sheet clears it.

describe('stale safety data sheets in the digest', () => {
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
  const mark = (id: string, revised_on: string) => ok(h, h.a.admin.token, 'PUT', `/attachments/${id}/safety-data-sheet`, { revised_on });
  const today = () => new Date().toISOString().slice(0, 10);

  it("lists the item whose type's sheet is 5 years old or more, in words with its age; not the item with a fresh sheet of its own", async () => {
    await labMember(h, h.a.orgId, h.a.legacyLab.id, 'sds-reader@example.org');
    const lab = h.a.legacyLab;
    const stale = await ok(h, h.a.admin.token, 'POST', '/inventory-items', {
      lab_id: lab.id,
      name: 'Acetone',
      type_id: lab.typeId,
      quantity: '1',
    });
    const fresh = await ok(h, h.a.admin.token, 'POST', '/inventory-items', {
      lab_id: lab.id,
      name: 'Toluene',
      type_id: lab.typeId,
      quantity: '1',
    });
    const typeDoc = (
      await upload(h, h.a.admin.token, { kind: 'type', typeId: lab.typeId }, pdf('SDS 2019'), 'solvents-sds-2019.pdf')
    ).json();
    await mark(typeDoc.id, '2019-03-12');
    const own = (await upload(h, h.a.admin.token, { kind: 'item', itemId: fresh.id }, pdf('SDS now'), 'toluene-sds.pdf')).json();
    await mark(own.id, today());
    // Another lab's stale sheet: not this reader's business.
    const hidden = await ok(h, h.a.admin.token, 'POST', '/inventory-items', {
      lab_id: h.a.otherLab.id,
      name: 'Hidden ether',
      quantity: '1',
    });
    const hiddenDoc = (await upload(h, h.a.admin.token, { kind: 'item', itemId: hidden.id }, pdf('SDS 2010'), 'ether-sds.pdf')).json();
    await mark(hiddenDoc.id, '2010-01-05');

    const w = await h.startWorker({ SMTP_URL: smtp.url, ALERT_SCAN_INTERVAL: '1h' });
    await w.idle();
    await smtp.waitFor(1);
    const mine = smtp.messages.filter((m) => m.to.includes('sds-reader@example.org'));
    expect(mine).toHaveLength(1);
    const text = mine[0]!.text;
    const age = ageInYears('2019-03-12', today());
    expect(text).toContain(
      `- Acetone: safety data sheet solvents-sds-2019.pdf, revised 12 March 2019, is ${age} years old (reviewed every 5 years): ask the supplier for the current one`,
    );
    expect(text).toContain(link(stale.id));
    expect(text).not.toContain('Toluene');
    expect(text).not.toContain(fresh.id);
    expect(text).not.toContain('Hidden ether');
    expect(text).not.toMatch(/[A-Z_]{2,}_[A-Z]+|sds_review/);
    // No event for it: the contract's alert events know expiring and below_minimum only.
    const events = await h.deps.db.selectFrom('events').select(['type', 'payload']).execute();
    const aboutIt = events.filter((e) => String(e.payload).includes(stale.id)).map((e) => e.type.replace(/^com\.[^.]+\./, ''));
    expect(aboutIt).toEqual(['inventory-item.created']);
  });

  it('a renewed sheet clears the alert at the next scan; a sheet going stale again fires again', async () => {
    const lab = h.a.legacyLab;
    const item = await ok(h, h.a.admin.token, 'POST', '/inventory-items', { lab_id: lab.id, name: 'Ethanol', quantity: '1' });
    const doc = (await upload(h, h.a.admin.token, { kind: 'item', itemId: item.id }, pdf('SDS 2018'), 'ethanol-sds.pdf')).json();
    await mark(doc.id, '2018-06-01');
    expect(reviewDueOn('2018-06-01', 5)).toBe('2023-06-01');
    const open = () =>
      h.deps.db
        .selectFrom('alerts')
        .select(['id', 'cleared_at'])
        .where('item_id', '=', item.id)
        .where('cause', '=', 'sds_review')
        .execute();
    await scanAlerts({ db: h.deps.db, config: h.config });
    expect((await open()).filter((a) => a.cleared_at === null)).toHaveLength(1);
    // A second scan fires nothing more.
    await scanAlerts({ db: h.deps.db, config: h.config });
    expect(await open()).toHaveLength(1);
    await mark(doc.id, today());
    await scanAlerts({ db: h.deps.db, config: h.config });
    expect((await open()).every((a) => a.cleared_at !== null)).toBe(true);
    await mark(doc.id, '2017-01-01');
    await scanAlerts({ db: h.deps.db, config: h.config });
    expect((await open()).filter((a) => a.cleared_at === null)).toHaveLength(1);
  });
});
