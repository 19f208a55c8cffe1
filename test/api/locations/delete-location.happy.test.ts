// DELETE /locations/{id}: an empty location (no sub-locations, nothing stored) goes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const admin = () => h.a.admin.token;
const create = (name: string, parent_id: string | null = null, lab_id = h.a.migratedLab.id, token = admin()) =>
  h.call(token, { method: 'POST', url: '/locations', payload: { lab_id, parent_id, name } });

/** A chain of `n` nested locations under `parent`, returning their ids root first. */
async function chain(prefix: string, n: number, parent: string | null = null): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await create(`${prefix}${i + 1}`, ids.at(-1) ?? parent);
    expect(r.statusCode, r.body).toBe(201);
    ids.push(r.json().id);
  }
  return ids;
}

describe('DELETE /locations/{id} (happy)', () => {
  it('deletes an empty location', async () => {
    const [x] = await chain('E', 1);
    const r = await h.call(admin(), { method: 'DELETE', url: `/locations/${x}` });
    expect(r.statusCode).toBe(204);
    expect(await h.deps.db.selectFrom('locations').select('id').where('id', '=', x!).executeTakeFirst()).toBeUndefined();
  });

  it('204 with no body; the lab no longer lists it; a member deletes in their lab', async () => {
    const [parent, leaf] = await chain('F', 2);
    const res = await h.call(h.a.member.token, { method: 'DELETE', url: `/locations/${leaf}` });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    const list = (await h.call(admin(), { method: 'GET', url: `/labs/${h.a.migratedLab.id}/locations` })).json();
    expect(list.map((l: any) => l.id)).not.toContain(leaf);
    // With its only child gone, the parent is empty and can go too.
    expect((await h.call(admin(), { method: 'DELETE', url: `/locations/${parent}` })).statusCode).toBe(204);
  });
});
