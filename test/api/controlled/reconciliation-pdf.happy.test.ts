// The reconciliation as PDF for the registrant's records (docs/controlled-substances.md "Reconciliation"): the item,
// the period, its opening balance, every entry with who, when, what, how much and the witness, the running balance,
// the count, the difference and lines to sign. Read back with MuPDF. Runs on SQLite and (with DATABASE_URL) PostgreSQL.
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { count, started } from '../stocktake/_stocktake.js';
import { get, ledgerOf, makeControlled, pdfPages, pdfText, unmark, witness } from './_controlled.js';

const h = useHarness();

const pdfOf = async (itemId: string, query = '') => {
  const res = await get(h, h.a.member.token, `/controlled-items/${itemId}/reconciliation.pdf${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res;
};
const name = (p: { first_name: string; last_name: string }) => `${p.first_name} ${p.last_name}`;
const today = () => new Date().toISOString().slice(0, 10);

describe('reconciliation PDF (happy)', () => {
  it('every entry of the period with its running balance and witness, the count and the difference, lines to sign', async () => {
    const c = await makeControlled(h);
    const [opening] = await ledgerOf(h, h.a.admin.token, c.itemId);
    await witness(h, h.a.member.token, opening.id);
    const use = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/inventory-items/${c.itemId}/adjustments`,
      payload: { delta: '-2', note: 'Anästhesie, 2 µL/g', instance_id: c.instanceIds[0] },
    });
    expect(use.statusCode, use.body).toBe(200);
    const res = await pdfOf(c.itemId, '?counted=4.5');
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="reconciliation-${c.itemId}-${today()}-${today()}.pdf"`);
    const text = pdfText(res.rawPayload);
    const [first, second] = await ledgerOf(h, h.a.admin.token, c.itemId);
    expect(text).toContain(`Controlled-substance reconciliation: ${first.item_name}`);
    expect(text).toContain(' · DEA Schedule II (units of 1 mL)');
    expect(text).toContain(`Period ${today()} to ${today()} (UTC)`);
    expect(text).toContain(`Opening balance on ${today()}: 0`);
    for (const header of ['No.', 'When (UTC)', 'What', 'Change', 'Balance', 'By', 'Witness']) expect(text).toContain(header);
    // Each entry: who, when, what, how much, the balance after it, its witness (or that it has none).
    expect(text).toContain('Opening: Marked controlled: DEA Schedule II');
    expect(text).toContain(first.recorded_at.slice(0, 16).replace('T', ' '));
    expect(text).toContain('+7');
    expect(text).toContain(name(first.witness));
    expect(text).toContain('Use: Anästhesie, 2 µL/g');
    expect(text).toMatch(/-2\s+5\s/);
    expect(text).toContain(name(second.recorded_by));
    expect(text).toContain('not witnessed');
    expect(text).toContain('Balance at the end of the period: 5');
    expect(text).toContain('Ledger balance now: 5 · the inventory records 5');
    expect(text).toContain('Counted by hand: 4.5 · difference (counted − ledger balance): -0.5');
    expect(text).toContain('1 entry waits for a witness.');
    for (const line of ['Counted by (name, signature)', 'Witness (name, signature)', 'Registrant (name, signature)'])
      expect(text).toContain(line);
    expect(pdfPages(res.rawPayload)).toBe(1);
  });

  it('an item no longer controlled: its ledger stays printable, the closing entry last, its schedule as it was', async () => {
    const c = await makeControlled(h);
    expect((await unmark(h, h.a.admin.token, c.itemId, { reason: 'Rescheduled' })).statusCode).toBe(200);
    expect((await get(h, h.a.admin.token, `/controlled-items/${c.itemId}`)).statusCode).toBe(404);
    const text = pdfText((await pdfOf(c.itemId, '?counted=7')).rawPayload);
    expect(text).toContain(' · No longer controlled (was DEA Schedule II) (units of 1 mL)');
    expect(text).toContain('Opening: Marked controlled: DEA Schedule II');
    // The closing entry's words wrap within their column.
    expect(text.replace(/\s+/g, ' ')).toContain('Closing: No longer controlled (was DEA Schedule II): Rescheduled');
    expect(text).toContain('Counted by hand: 7 · difference (counted − ledger balance): 0');
    // The same as JSON: the reconciliation answers for it too.
    const rec = await get(h, h.a.member.token, `/controlled-items/${c.itemId}/reconciliation?counted=7`);
    expect(rec.statusCode, rec.body).toBe(200);
    expect(rec.json()).toMatchObject({ schedule: 'No longer controlled (was DEA Schedule II)', ledger_balance: '7', difference: '0' });
  });

  it('a period after the last entry: the balance it opens with, no entries; without a count, blanks to fill in', async () => {
    const c = await makeControlled(h);
    const text = pdfText((await pdfOf(c.itemId, '?from=2999-01-01&to=2999-12-31')).rawPayload);
    expect(text).toContain('Period 2999-01-01 to 2999-12-31 (UTC)');
    expect(text).toContain('Opening balance on 2999-01-01: 7');
    expect(text).toContain('No entries in this period.');
    expect(text).toContain('Balance at the end of the period: 7');
    expect(text).toContain('Counted: ____________');
    // A period before the first entry opens at 0 and has none either.
    const before = pdfText((await pdfOf(c.itemId, '?from=2000-01-01&to=2000-01-31')).rawPayload);
    expect(before).toContain('Opening balance on 2000-01-01: 0');
    expect(before).toContain('No entries in this period.');
  });

  it('against a count session; a long ledger runs onto more pages with the table header on each', async () => {
    const c = await makeControlled(h);
    for (let i = 0; i < 30; i++) {
      const res = await h.call(h.a.admin.token, {
        method: 'POST',
        url: `/inventory-items/${c.itemId}/adjustments`,
        payload: {
          delta: i % 2 === 0 ? '-0.1' : '0.1',
          note: `dose ${i}: drawn up in the procedure room for the surgery of cage ${i}, the rest returned to the safe the same day`,
          instance_id: c.instanceIds[0],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const view = await started(h, h.a.admin.token, c.places[0]);
    expect((await count(h, h.a.member.token, view.id, c.instanceIds[0], { quantity: '4' })).statusCode).toBe(200);
    const res = await pdfOf(c.itemId, `?stocktake_id=${view.id}`);
    const text = pdfText(res.rawPayload);
    const pages = pdfPages(res.rawPayload);
    expect(pages).toBeGreaterThan(1);
    // A long note wraps within its column, whole: nothing of the record is cut off.
    expect(text).toContain('returned to the safe the same day');
    // The table's header repeats on each page it runs onto.
    expect(text.match(/When \(UTC\)/g)!.length).toBeGreaterThan(1);
    expect(text).toContain('dose 29');
    expect(text).toContain('Counted by a count session: 4 · difference (counted − ledger balance): -3');
  });
});
