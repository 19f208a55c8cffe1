// Reconciliation (docs/controlled-substances.md): the ledger balance against a quick count or a count session, the
// difference, the amount recorded and the unwitnessed entries; as JSON and as a CSV download.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { count, started } from '../stocktake/_stocktake.js';
import { changesOf, correct, ledgerOf, makeControlled, reconciliation, witness } from './_controlled.js';

const h = useHarness();

describe('reconciliation (happy)', () => {
  it('against a quick count: expected, counted, difference and what waits for a witness', async () => {
    const c = await makeControlled(h);
    const [opening] = await ledgerOf(h, h.a.admin.token, c.itemId);
    await witness(h, h.a.member.token, opening.id);
    await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/inventory-items/${c.itemId}/adjustments`,
      payload: { delta: '-2', note: '=HYPERLINK("x")', instance_id: c.instanceIds[0] },
    });
    const res = await reconciliation(h, h.a.member.token, c.itemId, '?counted=4.5');
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r).toMatchObject({
      item_id: c.itemId,
      schedule: 'DEA Schedule II',
      ledger_balance: '5',
      recorded_quantity: '5',
      counted: '4.5',
      counted_by: 'count',
      difference: '-0.5',
    });
    expect(r.unwitnessed.map((e: any) => e.kind)).toEqual(['use']);

    const file = await h.call(h.a.member.token, { method: 'GET', url: `/controlled-items/${c.itemId}/reconciliation.csv?counted=4.5` });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toMatch(/^text\/csv/);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="reconciliation-${c.itemId}.csv"`);
    expect(file.body).toContain('\r\n');
    const rows = parse(file.body, { relax_column_count: true }) as string[][];
    expect(rows[0]).toEqual([
      'item',
      'schedule',
      'unit_size',
      'ledger_balance',
      'recorded_quantity',
      'counted',
      'difference',
      'unwitnessed_entries',
    ]);
    expect(rows[1]!.slice(1)).toEqual(['DEA Schedule II', '1 mL', '5', '5', '4.5', '-0.5', '1']);
    expect(rows[3]![0]).toBe('seq');
    expect(rows[4]!.slice(0, 5)).toEqual(['2', 'use', '2', '-2', '5']);
    // A note a spreadsheet would run as a formula is written as text.
    expect(rows[4]![11]).toBe('\'=HYPERLINK("x")');
  });

  it('without a count: the balances and the unwitnessed entries, no difference', async () => {
    const c = await makeControlled(h);
    const [opening] = await ledgerOf(h, h.a.admin.token, c.itemId);
    expect(
      (await correct(h, h.a.member.token, c.itemId, { corrects_entry_id: opening.id, change: '0.5', note: 'opening missed a vial' }))
        .statusCode,
    ).toBe(201);
    const r = (await reconciliation(h, h.a.admin.token, c.itemId)).json();
    // The correction changed the ledger's balance, not the inventory's: the report shows both.
    expect(r).toMatchObject({ ledger_balance: '7.5', recorded_quantity: '7', counted: null, counted_by: null, difference: null });
    expect(r.unwitnessed.map((e: any) => e.kind)).toEqual(['opening', 'correction']);
  });

  it("against a count session: what it counted of the item's containers", async () => {
    const c = await makeControlled(h);
    const view = await started(h, h.a.admin.token, c.places[0]);
    expect((await count(h, h.a.member.token, view.id, c.instanceIds[0], { quantity: '4' })).statusCode).toBe(200);
    expect((await count(h, h.a.member.token, view.id, c.instanceIds[1])).statusCode).toBe(200);
    const r = (await reconciliation(h, h.a.admin.token, c.itemId, `?stocktake_id=${view.id}`)).json();
    expect(r).toMatchObject({ ledger_balance: '7', counted: '6', counted_by: 'stocktake', difference: '-1' });
    expect(await changesOf(h, h.a.admin.token, c.itemId)).toEqual([]);
  });
});
