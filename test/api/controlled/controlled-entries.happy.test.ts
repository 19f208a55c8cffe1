// Ledger entries waiting for a witness, and witnessing them (docs/controlled-substances.md): the second person
// confirms in their own session. Runs on SQLite and (with DATABASE_URL) PostgreSQL.
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { changesOf, get, makeControlled, witness } from './_controlled.js';

const h = useHarness();

const waitingIds = async (token: string, query = '') => {
  const res = await get(h, token, `/controlled-entries?per_page=100${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().map((e: any) => e.id) as string[];
};

describe('entries waiting for a witness (happy)', () => {
  it("lists the lab's unwitnessed entries oldest first, the caller's own included; witnessing takes one off", async () => {
    const c = await makeControlled(h);
    const use = await h.call(h.a.member.token, {
      method: 'POST',
      url: `/inventory-items/${c.itemId}/adjustments`,
      payload: { delta: '-1', note: 'titration', instance_id: c.instanceIds[1] },
    });
    expect(use.statusCode, use.body).toBe(200);
    const [entry] = await changesOf(h, h.a.admin.token, c.itemId);
    expect(entry.recorded_by.id).toBe(h.a.member.id);
    const mine = await waitingIds(h.a.member.token, `&lab_id=${h.a.migratedLab.id}`);
    expect(mine).toContain(entry.id);
    const all = await get(h, h.a.admin.token, '/controlled-entries?per_page=100');
    const ours = all.json().filter((e: any) => e.item_id === c.itemId);
    expect(ours.map((e: any) => e.kind)).toEqual(['opening', 'use']);
    expect(ours[1]).toMatchObject({ amount: '1', unit_size: '1 mL', note: 'titration', item_name: expect.stringMatching(/^Ketamine /) });

    const res = await witness(h, h.a.admin.token, entry.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: entry.id, kind: 'use', witness: { id: h.a.admin.id }, recorded_by: { id: h.a.member.id } });
    expect(await waitingIds(h.a.member.token)).not.toContain(entry.id);
    const [after] = await changesOf(h, h.a.admin.token, c.itemId);
    expect(after.witness.id).toBe(h.a.admin.id);
  });
});
