// Unmarking a controlled substance (docs/controlled-substances.md "Marking an item",
// POST /controlled-items/{itemId}/unmark {reason}): a closing entry with the reason ends the ledger, which stays.
// Runs on SQLite and (with DATABASE_URL) PostgreSQL.
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { get, ledgerOf, makeControlled, mark, unmark } from './_controlled.js';

const h = useHarness();

describe('unmarking (happy)', () => {
  it('records the reason in a closing entry that waits for a witness; the item is no longer listed as controlled', async () => {
    const c = await makeControlled(h);
    const res = await unmark(h, h.a.admin.token, c.itemId, { reason: '  Rescheduled: no longer a controlled drug here ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      item_id: c.itemId,
      seq: 2,
      kind: 'closing',
      amount: '7',
      change: '0',
      balance: '7',
      source: 'marking',
      note: 'No longer controlled (was DEA Schedule II): Rescheduled: no longer a controlled drug here',
      recorded_by: { id: h.a.admin.id },
      witness: null,
    });
    expect((await get(h, h.a.admin.token, `/controlled-items?item_id=${c.itemId}`)).json()).toEqual([]);
    const waiting = (await get(h, h.a.member.token, '/controlled-entries?per_page=100')).json();
    expect(waiting.map((e: any) => e.id)).toContain(res.json().id);
    expect((await ledgerOf(h, h.a.member.token, c.itemId)).map((e) => e.kind)).toEqual(['opening', 'closing']);
  });

  it('marking it again opens a new stretch of the same ledger', async () => {
    const c = await makeControlled(h);
    expect((await unmark(h, h.a.admin.token, c.itemId)).statusCode).toBe(200);
    expect((await mark(h, h.a.admin.token, c.itemId, { schedule: 'UK Class B' })).statusCode).toBe(201);
    const ledger = await ledgerOf(h, h.a.admin.token, c.itemId);
    expect(ledger.map((e) => [e.seq, e.kind, e.balance])).toEqual([
      [1, 'opening', '7'],
      [2, 'closing', '7'],
      [3, 'opening', '7'],
    ]);
  });

  it('the same Idempotency-Key unmarks once and answers the same', async () => {
    const c = await makeControlled(h);
    const headers = { 'idempotency-key': `unmark-${c.itemId}` };
    const a = await unmark(h, h.a.admin.token, c.itemId, undefined, headers);
    const b = await unmark(h, h.a.admin.token, c.itemId, undefined, headers);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    expect(b.json()).toEqual(a.json());
    expect(await ledgerOf(h, h.a.admin.token, c.itemId)).toHaveLength(2);
  });
});
