// Counting a lab that does not use instances (docs/stocktake.md, "Labs without instances"): the count covers the
// lab, its lines are the items, two people count at once without losing counts, the apply adjusts each item's own
// quantity with the count in its history and one inventory-item.updated per item; the reports list the items. Runs
// on SQLite and (with DATABASE_URL) PostgreSQL.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventMark, eventsSince } from '../../helpers/events.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { apply, countItem, get, itemLineOf, itemQuantity, makeLegacyLab, startLab } from './_stocktake.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const started = async (token: string, labId: string) => {
  const res = await startLab(h, token, labId);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};

describe('stocktake of a lab without instances (happy)', () => {
  it('covers every item of the lab, each with its own place; starting it again resumes it', async () => {
    const s = await makeLegacyLab(h);
    const view = await started(h.a.member.token, s.labId);
    expect(view).toMatchObject({
      status: 'open',
      covers: 'lab',
      location_id: null,
      location: null,
      lab: { id: s.labId },
      started_by: { id: h.a.member.id },
      summary: { expected: 3, counted: 0, missing: 3, unexpected: 0, different: 0, matching: 0 },
    });
    expect(view.lines.map((l: any) => l.item_id).sort()).toEqual([...s.itemIds].sort());
    expect(itemLineOf(view, s.itemIds[0])).toMatchObject({
      instance_id: null,
      state: 'missing',
      expected: true,
      recorded_quantity: '5',
      lot_number: 'L-Acetone',
      recorded_location: { name: 'Shelf A', pathNames: ['Cabinet 1', 'Shelf A'] },
    });
    expect(itemLineOf(view, s.itemIds[1]).recorded_location).toEqual({ name: 'Cabinet 1', pathNames: ['Cabinet 1'] });
    expect(itemLineOf(view, s.itemIds[2]).recorded_location).toBeNull();
    // Walking order: by location, then sublocation, then name; items with no place first.
    expect(view.lines.map((l: any) => l.item_id)).toEqual([s.itemIds[2], s.itemIds[1], s.itemIds[0]]);
    const again = await startLab(h, h.a.admin.token, s.labId);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().id).toBe(view.id);
    const open = (await h.call(h.a.member.token, { method: 'GET', url: `/stocktakes?status=open&lab_id=${s.labId}` })).json();
    expect(open.map((x: any) => [x.id, x.covers])).toEqual([[view.id, 'lab']]);
  });

  it('two people count at once: every count of both is kept; the same item counted again keeps the later count', async () => {
    const s = await makeLegacyLab(h);
    const view = await started(h.a.admin.token, s.labId);
    const [a, b] = await Promise.all([
      Promise.all([
        countItem(h, h.a.admin.token, view.id, s.itemIds[0], { quantity: '4' }),
        countItem(h, h.a.admin.token, view.id, s.itemIds[2]),
      ]),
      Promise.all([
        countItem(h, h.a.member.token, view.id, s.itemIds[1], { quantity: '2' }),
        countItem(h, h.a.member.token, view.id, s.itemIds[2]),
      ]),
    ]);
    for (const res of [...a, ...b]) expect(res.statusCode, res.body).toBe(200);
    expect(a[0]!.json()).toMatchObject({
      item_id: s.itemIds[0],
      state: 'different',
      counted_quantity: '4',
      counted_by: { id: h.a.admin.id },
    });
    const after = (await get(h, h.a.member.token, view.id)).json();
    expect(after.summary).toEqual({ expected: 3, counted: 3, missing: 0, unexpected: 0, different: 1, matching: 2 });
    expect(itemLineOf(after, s.itemIds[1])).toMatchObject({ state: 'matching', counted_by: { id: h.a.member.id } });
    const rows = await h.deps.db.selectFrom('stocktake_counts').selectAll().where('session_id', '=', view.id).execute();
    expect(rows.map((r) => r.item_id).sort()).toEqual([...s.itemIds].sort());
    // Counted again: the later count replaces the first.
    expect((await countItem(h, h.a.member.token, view.id, s.itemIds[0], { quantity: '3.5' })).json()).toMatchObject({
      counted_quantity: '3.5',
      counted_by: { id: h.a.member.id },
    });
  });

  it('apply adjusts each counted item once, with the count in its history and one inventory-item.updated per item', async () => {
    const s = await makeLegacyLab(h);
    const view = await started(h.a.member.token, s.labId);
    await countItem(h, h.a.member.token, view.id, s.itemIds[0], { quantity: '4' });
    await countItem(h, h.a.member.token, view.id, s.itemIds[1]);
    // A use recorded after the count: the apply adds the difference counted (4 - 5) to what is there now (5 - 1).
    const used = await h.call(h.a.member.token, {
      method: 'POST',
      url: `/inventory-items/${s.itemIds[0]}/adjustments`,
      payload: { delta: '-1', note: 'used' },
    });
    expect(used.statusCode, used.body).toBe(200);
    const mark = await eventMark(h);
    const res = await apply(h, h.a.member.token, view.id, { missing: 'set_to_zero' }, { 'Idempotency-Key': `apply-${view.id}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'applied', missing_set_to_zero: true, finished_by: { id: h.a.member.id } });
    expect(await itemQuantity(h, s.itemIds[0])).toBe('3');
    expect(await itemQuantity(h, s.itemIds[1])).toBe('2');
    expect(await itemQuantity(h, s.itemIds[2])).toBe('0');
    const events = await eventsSince(h, mark);
    // Ticked as recorded (Buffer): nothing changes, no event. One inventory-item.updated for each item changed.
    expect(events.every((e) => e.row.type.endsWith('.inventory-item.updated'))).toBe(true);
    expect(events.map((e) => (e.event.data as any).inventory_item.id).sort()).toEqual([s.itemIds[0], s.itemIds[2]].sort());
    expect(events.find((e) => (e.event.data as any).inventory_item.id === s.itemIds[0])!.event.data).toMatchObject({
      inventory_item: { quantity: '3', instances: [] },
    });
    const history = (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${s.itemIds[0]}/history` })).json();
    expect(history.find((e: any) => e.stocktake_id === view.id)).toMatchObject({
      field: 'quantity',
      old_value: '4',
      new_value: '3',
      note: expect.stringMatching(/^Stocktake of Bench lab /),
    });
    // The same Idempotency-Key answers the first apply; the lines stay as they were applied.
    const retry = await apply(h, h.a.member.token, view.id, { missing: 'set_to_zero' }, { 'Idempotency-Key': `apply-${view.id}` });
    expect(retry.statusCode).toBe(200);
    expect(await itemQuantity(h, s.itemIds[0])).toBe('3');
    const kept = (await get(h, h.a.member.token, view.id)).json();
    expect(itemLineOf(kept, s.itemIds[0])).toMatchObject({ state: 'different', recorded_quantity: '5', counted_quantity: '4' });
    expect(itemLineOf(kept, s.itemIds[2]).state).toBe('missing');
  });

  it('the reports list the items with their states and places', async () => {
    const s = await makeLegacyLab(h);
    const view = await started(h.a.member.token, s.labId);
    await countItem(h, h.a.member.token, view.id, s.itemIds[0], { quantity: '4' });
    const csv = await get(h, h.a.member.token, view.id, '/report.csv');
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = csv.body.trim().split('\r\n');
    expect(rows).toHaveLength(4);
    const acetone = rows.find((r) => r.includes('Acetone'))!;
    expect(acetone).toMatch(/^different,Acetone [^,]+,,,L-Acetone,,5,4,Cabinet 1 \/ Shelf A,,/);
    expect(acetone.endsWith(`,,${s.itemIds[0]}`)).toBe(true);
    const pdf = await get(h, h.a.member.token, view.id, '/report.pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });
});
