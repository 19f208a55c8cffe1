// A lab's reconciliation (docs/controlled-substances.md "Reconciliation"): every controlled item of the lab with its
// ledger balance, its last count and the difference, as JSON, CSV and PDF. Runs on SQLite and (with DATABASE_URL)
// PostgreSQL.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { count, started } from '../stocktake/_stocktake.js';
import { get, labReconciliation, ledgerOf, makeControlled, makeItem, pdfText, unmark, witness } from './_controlled.js';

const h = useHarness();

describe('lab reconciliation (happy)', () => {
  it('each controlled item with its balance, its last count and the difference; a cancelled count does not count', async () => {
    const counted = await makeControlled(h);
    const never = await makeControlled(h);
    const plain = await makeItem(h);
    const gone = await makeControlled(h);
    expect((await unmark(h, h.a.admin.token, gone.itemId)).statusCode).toBe(200);
    const [opening] = await ledgerOf(h, h.a.admin.token, never.itemId);
    expect((await witness(h, h.a.member.token, opening.id)).statusCode).toBe(200);

    const session = await started(h, h.a.admin.token, counted.places[0]);
    expect((await count(h, h.a.member.token, session.id, counted.instanceIds[0], { quantity: '4' })).statusCode).toBe(200);
    const cancelled = await started(h, h.a.admin.token, counted.places[1]);
    expect((await count(h, h.a.member.token, cancelled.id, counted.instanceIds[1], { quantity: '1' })).statusCode).toBe(200);
    expect((await h.call(h.a.admin.token, { method: 'POST', url: `/stocktakes/${cancelled.id}/cancel` })).statusCode).toBe(200);

    const res = await labReconciliation(h, h.a.member.token, h.a.migratedLab.id);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r.lab.id).toBe(h.a.migratedLab.id);
    const ids = r.items.map((i: any) => i.item_id);
    expect(ids).toEqual(expect.arrayContaining([counted.itemId, never.itemId]));
    expect(ids).not.toContain(plain.itemId);
    expect(ids).not.toContain(gone.itemId);
    const names = r.items.map((i: any) => i.item_name);
    expect(names).toEqual([...names].sort());
    const one = r.items.find((i: any) => i.item_id === counted.itemId);
    expect(one).toMatchObject({
      schedule: 'DEA Schedule II',
      unit_size: '1 mL',
      ledger_balance: '7',
      recorded_quantity: '7',
      waiting_for_witness: 1,
      last_count: { stocktake_id: session.id, counted: '4' },
      difference: '-3',
    });
    expect(Date.parse(one.last_count.counted_at)).not.toBeNaN();
    expect(r.items.find((i: any) => i.item_id === never.itemId)).toMatchObject({
      ledger_balance: '7',
      waiting_for_witness: 0,
      last_count: null,
      difference: null,
    });

    const csv = await labReconciliation(h, h.a.member.token, h.a.migratedLab.id, '.csv');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="controlled-reconciliation-${h.a.migratedLab.id}.csv"`);
    const rows = parse(csv.body) as string[][];
    expect(rows[0]).toEqual([
      'item',
      'schedule',
      'unit_size',
      'ledger_balance',
      'recorded_quantity',
      'waiting_for_witness',
      'last_counted_at',
      'last_count',
      'difference',
      'stocktake_id',
      'item_id',
    ]);
    expect(rows).toHaveLength(r.items.length + 1);
    const row = rows.find((x) => x[10] === counted.itemId)!;
    expect([row[0], row[1], row[3], row[4], row[5], row[7], row[8], row[9]]).toEqual([
      one.item_name,
      'DEA Schedule II',
      '7',
      '7',
      '1',
      '4',
      '-3',
      session.id,
    ]);

    const pdf = await labReconciliation(h, h.a.member.token, h.a.migratedLab.id, '.pdf');
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain(`Controlled substances of ${r.lab.name}: reconciliation`);
    expect(text).toContain(one.item_name);
    expect(text).toContain(`4 on ${one.last_count.counted_at.slice(0, 10)}`);
    expect(text).toContain('-3');
    expect(text).toContain('never counted');
    expect(text).toContain('Registrant (name, signature)');
  });

  it('a lab without controlled substances: an empty list, a CSV of its header, a PDF that says so', async () => {
    const lab = h.a.otherLab.id;
    const r = (await labReconciliation(h, h.a.admin.token, lab)).json();
    expect(r.items).toEqual([]);
    const csv = await labReconciliation(h, h.a.admin.token, lab, '.csv');
    expect(parse(csv.body)).toHaveLength(1);
    const text = pdfText((await get(h, h.a.admin.token, `/labs/${lab}/controlled-reconciliation.pdf`)).rawPayload);
    expect(text).toContain('This lab has no controlled substances.');
  });
});
