// Witnessing a ledger entry (docs/controlled-substances.md "The witness", POST /controlled-entries/{entryId}/witness):
// another person who sees the lab confirms it in their own session; the entry itself never changes, the witness is a
// row of its own. Runs on SQLite and (with DATABASE_URL) PostgreSQL.
import { describe, expect, it } from 'vitest';
import { addMember, newPerson } from '../../helpers/approvals.js';
import { useHarness } from '../../helpers/use-harness.js';
import { changesOf, get, ledgerOf, makeControlled, unmark, witness } from './_controlled.js';

const h = useHarness();

describe('witnessing (happy)', () => {
  it("a member witnesses the admin's opening entry: the answer is the entry with its witness; nothing else changes", async () => {
    const c = await makeControlled(h);
    const [opening] = await ledgerOf(h, h.a.admin.token, c.itemId);
    expect((await get(h, h.a.admin.token, `/controlled-items/${c.itemId}`)).json().waiting_for_witness).toBe(1);
    const started = Date.now();
    const res = await witness(h, h.a.member.token, opening.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const { witness: who, witnessed_at, ...rest } = body;
    const { witness: none, witnessed_at: notYet, ...before } = opening;
    expect(rest).toEqual(before);
    expect([none, notYet]).toEqual([null, null]);
    expect(who).toMatchObject({ id: h.a.member.id });
    expect(Date.parse(witnessed_at)).toBeGreaterThanOrEqual(started - 1000);
    const [after] = await ledgerOf(h, h.a.admin.token, c.itemId);
    expect(after).toEqual(body);
    expect((await get(h, h.a.admin.token, `/controlled-items/${c.itemId}`)).json()).toMatchObject({ waiting_for_witness: 0, balance: '7' });
  });

  it("another member of the lab witnesses a member's use; the author may witness someone else's entry", async () => {
    const c = await makeControlled(h);
    const colleague = await newPerson(h, h.a.orgId, 'Wanda');
    expect((await addMember(h, h.a.admin.token, h.a.migratedLab.id, colleague.id)).statusCode).toBeLessThan(300);
    const use = await h.call(h.a.member.token, {
      method: 'POST',
      url: `/inventory-items/${c.itemId}/adjustments`,
      payload: { delta: '-0.5', note: 'sedation', instance_id: c.instanceIds[0] },
    });
    expect(use.statusCode, use.body).toBe(200);
    const [entry] = await changesOf(h, h.a.admin.token, c.itemId);
    const res = await witness(h, colleague.token, entry.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      kind: 'use',
      change: '-0.5',
      balance: '6.5',
      recorded_by: { id: h.a.member.id },
      witness: { id: colleague.id },
    });
    const [opening] = await ledgerOf(h, h.a.admin.token, c.itemId);
    expect((await witness(h, h.a.member.token, opening.id)).statusCode).toBe(200);
  });

  it("an unmarked item's closing entry is witnessed like any other", async () => {
    const c = await makeControlled(h);
    const closing = await unmark(h, h.a.admin.token, c.itemId, { reason: 'Rescheduled' });
    expect(closing.statusCode, closing.body).toBe(200);
    const res = await witness(h, h.a.member.token, closing.json().id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'closing', witness: { id: h.a.member.id } });
  });

  it('the same Idempotency-Key witnesses once and answers the same', async () => {
    const c = await makeControlled(h);
    const [opening] = await ledgerOf(h, h.a.admin.token, c.itemId);
    const headers = { 'idempotency-key': `witness-${opening.id}` };
    const a = await witness(h, h.a.member.token, opening.id, headers);
    const b = await witness(h, h.a.member.token, opening.id, headers);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    expect(b.json()).toEqual(a.json());
    const rows = await h.deps.db.selectFrom('controlled_witnesses').selectAll().where('entry_id', '=', opening.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('two witnesses at once: one witnesses it, the other is told it is done (409)', async () => {
    const c = await makeControlled(h);
    const [opening] = await ledgerOf(h, h.a.admin.token, c.itemId);
    const [a, b] = await Promise.all([witness(h, h.a.member.token, opening.id), witness(h, h.a.member.token, opening.id)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const rows = await h.deps.db.selectFrom('controlled_witnesses').selectAll().where('entry_id', '=', opening.id).execute();
    expect(rows).toHaveLength(1);
  });
});
