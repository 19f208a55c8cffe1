// Controlled substances (docs/controlled-substances.md, docs/product.md §14): marking an item, its ledger with a
// second person who witnesses each entry, corrections, unmarking. Runs on SQLite and (with DATABASE_URL) PostgreSQL.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { changesOf, correct, get, ledgerOf, makeControlled, makeItem, mark, unmark, witness } from './_controlled.js';

const h = useHarness();

const adjust = (itemId: string, instanceId: string, delta: string, note = 'for an injection') =>
  h.call(h.a.admin.token, {
    method: 'POST',
    url: `/inventory-items/${itemId}/adjustments`,
    payload: { delta, note, instance_id: instanceId },
  });

describe('controlled items (happy)', () => {
  it('marking opens the ledger with the amount recorded; marking again changes the schedule', async () => {
    const c = await makeItem(h);
    const res = await mark(h, h.a.admin.token, c.itemId, { schedule: '  UK Class B ' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers.location).toBe(`/controlled-items/${c.itemId}`);
    expect(res.json()).toMatchObject({
      item_id: c.itemId,
      lab_id: h.a.migratedLab.id,
      schedule: 'UK Class B',
      unit_size: '1 mL',
      balance: '7',
      waiting_for_witness: 1,
      marked_by: { id: h.a.admin.id },
    });
    const [opening] = await ledgerOf(h, h.a.member.token, c.itemId);
    expect(opening).toMatchObject({ seq: 1, kind: 'opening', amount: '7', change: '7', balance: '7', source: 'marking', witness: null });
    expect(opening.recorded_by.id).toBe(h.a.admin.id);

    const again = await mark(h, h.a.admin.token, c.itemId, { schedule: 'DEA Schedule II' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().schedule).toBe('DEA Schedule II');
    expect(await ledgerOf(h, h.a.admin.token, c.itemId)).toHaveLength(1);
    const read = await get(h, h.a.member.token, `/controlled-items/${c.itemId}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().schedule).toBe('DEA Schedule II');
  });

  it("the list shows the lab's controlled items with their balance", async () => {
    const c = await makeControlled(h);
    const res = await get(h, h.a.member.token, `/controlled-items?lab_id=${h.a.migratedLab.id}&per_page=100`);
    expect(res.statusCode, res.body).toBe(200);
    const mine = res.json().find((x: any) => x.item_id === c.itemId);
    expect(mine).toMatchObject({ balance: '7', schedule: 'DEA Schedule II', waiting_for_witness: 1 });
    expect(Number(res.headers['x-total-count'])).toBe(res.json().length);
    // One item asked for: the page's way to tell a controlled item from one that is not ([]), without a 404.
    const one = await get(h, h.a.member.token, `/controlled-items?item_id=${c.itemId}`);
    expect(one.json().map((x: any) => x.item_id)).toEqual([c.itemId]);
    const plain = await makeItem(h);
    const none = await get(h, h.a.member.token, `/controlled-items?item_id=${plain.itemId}`);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toEqual([]);
  });

  it('a use is an entry waiting for a witness; another person of the lab witnesses it in their own session', async () => {
    const c = await makeControlled(h);
    expect((await adjust(c.itemId, c.instanceIds[0], '-2')).statusCode).toBe(200);
    const [use] = await changesOf(h, h.a.admin.token, c.itemId);
    expect(use).toMatchObject({
      kind: 'use',
      amount: '2',
      change: '-2',
      balance: '5',
      note: 'for an injection',
      instance_id: c.instanceIds[0],
    });

    const waiting = await get(h, h.a.member.token, `/controlled-entries?lab_id=${h.a.migratedLab.id}&per_page=100`);
    expect(waiting.statusCode, waiting.body).toBe(200);
    expect(waiting.json().map((e: any) => e.id)).toContain(use.id);
    expect(waiting.json().find((e: any) => e.id === use.id).item_name).toMatch(/^Ketamine /);

    const res = await witness(h, h.a.member.token, use.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: use.id, witness: { id: h.a.member.id }, witnessed_at: expect.any(String) });
    const after = await get(h, h.a.member.token, `/controlled-entries?lab_id=${h.a.migratedLab.id}&per_page=100`);
    expect(after.json().map((e: any) => e.id)).not.toContain(use.id);
    expect((await get(h, h.a.member.token, `/controlled-items/${c.itemId}`)).json().waiting_for_witness).toBe(1);
  });

  it('a correction is a new entry naming the one it corrects, which stays as it was', async () => {
    const c = await makeControlled(h);
    await adjust(c.itemId, c.instanceIds[0], '-2');
    const [use] = await changesOf(h, h.a.admin.token, c.itemId);
    const res = await correct(h, h.a.member.token, c.itemId, {
      corrects_entry_id: use.id,
      change: '-0.5',
      note: 'spilled 0.5 mL drawing it',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      kind: 'correction',
      corrects_id: use.id,
      amount: '0.5',
      change: '-0.5',
      balance: '4.5',
      source: 'correction',
      recorded_by: { id: h.a.member.id },
      witness: null,
    });
    const ledger = await ledgerOf(h, h.a.admin.token, c.itemId);
    expect(ledger.map((e) => e.kind)).toEqual(['opening', 'use', 'correction']);
    expect(ledger[1]).toEqual(use);
    // The admin (not its author) witnesses the member's correction.
    expect((await witness(h, h.a.admin.token, res.json().id)).statusCode).toBe(200);
  });

  it('unmarking ends the ledger with a closing entry; the ledger stays readable', async () => {
    const c = await makeControlled(h);
    const res = await unmark(h, h.a.admin.token, c.itemId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'closing', change: '0', balance: '7', witness: null });
    expect((await get(h, h.a.admin.token, `/controlled-items/${c.itemId}`)).statusCode).toBe(404);
    const ledger = await ledgerOf(h, h.a.admin.token, c.itemId);
    expect(ledger.map((e) => [e.kind, e.balance])).toEqual([
      ['opening', '7'],
      ['closing', '7'],
    ]);
    // No longer controlled: a use writes nothing more, and the item may be deleted again.
    await adjust(c.itemId, c.instanceIds[0], '-1');
    expect(await ledgerOf(h, h.a.admin.token, c.itemId)).toHaveLength(2);
    const del = await h.call(h.a.admin.token, { method: 'DELETE', url: `/inventory-items/${c.itemId}` });
    expect(del.statusCode, del.body).toBe(204);
  });

  it('the ledger is append-only in the database itself: UPDATE and DELETE are refused on both engines', async () => {
    const c = await makeControlled(h);
    const [opening] = await ledgerOf(h, h.a.admin.token, c.itemId);
    await expect(sql`update controlled_ledger set amount = '1' where id = ${opening.id}`.execute(h.deps.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from controlled_ledger where id = ${opening.id}`.execute(h.deps.db)).rejects.toThrow(/append-only/);
    await witness(h, h.a.member.token, opening.id);
    await expect(sql`delete from controlled_witnesses where entry_id = ${opening.id}`.execute(h.deps.db)).rejects.toThrow(/append-only/);
    await expect(
      sql`update controlled_witnesses set witnessed_by = ${h.a.admin.id} where entry_id = ${opening.id}`.execute(h.deps.db),
    ).rejects.toThrow(/append-only/);
    const [still] = await ledgerOf(h, h.a.admin.token, c.itemId);
    expect(still).toMatchObject({ amount: '7', witness: { id: h.a.member.id } });
  });

  it('the same Idempotency-Key marks once and answers the same', async () => {
    const c = await makeItem(h);
    const headers = { 'idempotency-key': `mark-${c.itemId}` };
    const [a, b] = [
      await mark(h, h.a.admin.token, c.itemId, undefined, headers),
      await mark(h, h.a.admin.token, c.itemId, undefined, headers),
    ];
    expect(a.statusCode, a.body).toBe(201);
    expect(b.statusCode, b.body).toBe(201);
    expect(b.json()).toEqual(a.json());
    expect(await ledgerOf(h, h.a.admin.token, c.itemId)).toHaveLength(1);
  });
});
