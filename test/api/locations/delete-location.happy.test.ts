// DELETE /locations/{id}: an empty location (no sub-locations, nothing stored) goes.
import { describe, expect, it } from 'vitest';
import { locationFixture } from '../../helpers/locations.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();
const { admin, chain } = locationFixture(h);

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
