// DELETE /locations/{id}: another organization's locations, a lab the member is not in, and no token.
import { describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { createLocation } from '../../../src/locations/service.js';
import { revokedToken } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { locationFixture } from '../../helpers/locations.js';
import { useHarness } from '../../helpers/use-harness.js';

/** An empty location in a migrated lab of org A that the member does not belong to. */
let hiddenLocationId: string;
const h = useHarness({}, async (h) => {
  const lab = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Hidden migrated lab', usesInstances: true });
  hiddenLocationId = (await createLocation(h.deps.db, h.a.admin.actor, { labId: lab.id, parentId: null, name: 'Secret room' })).id;
});
const { admin, locationRows } = locationFixture(h);

const del = (token: string | null, id: string) => h.call(token, { method: 'DELETE', url: `/locations/${id}` });
/** An empty location at the root of org A's migrated lab, which the member may see. */
async function emptyLocation(name: string): Promise<string> {
  const res = await h.call(admin(), { method: 'POST', url: '/locations', payload: { lab_id: h.a.migratedLab.id, name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

describe('DELETE /locations/{id} (security)', () => {
  it("gives 404 for another organization's location, and changes nothing", async () => {
    const [bRoom] = h.b.migratedLab.locationIds;
    expect((await h.call(admin(), { method: 'DELETE', url: `/locations/${bRoom}` })).statusCode).toBe(404);
    const row = await h.deps.db.selectFrom('locations').select('name').where('id', '=', bRoom!).executeTakeFirstOrThrow();
    expect(row.name).toBe('Room 101');
  });

  it('org A tokens get 404 for org B locations, even an empty one, which stays', async () => {
    const bEmpty = await h.call(h.b.admin.token, {
      method: 'POST',
      url: '/locations',
      payload: { lab_id: h.b.migratedLab.id, name: 'B only' },
    });
    expect(bEmpty.statusCode, bEmpty.body).toBe(201);
    const before = await locationRows();
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const id of [bEmpty.json().id, ...h.b.migratedLab.locationIds]) expectError(await del(token, id), 404, 'not_found');
    }
    expect(await locationRows()).toEqual(before);
  });

  it('401 without a token, with an unknown token and with a revoked token; nothing is deleted', async () => {
    const target = await emptyLocation('Guarded');
    const revoked = await revokedToken(h, h.a);
    const before = await locationRows();
    for (const token of [null, 'lst_unknown', revoked]) expectError(await del(token, target), 401, 'unauthorized');
    expect(await locationRows()).toEqual(before);
  });

  it('the member gets 404 for a location of a lab they do not belong to; the outsider for every location; the admin deletes it', async () => {
    const visible = await emptyLocation('Visible to the member');
    const before = await locationRows();
    expectError(await del(h.a.member.token, hiddenLocationId), 404, 'not_found');
    for (const id of [hiddenLocationId, visible]) expectError(await del(h.a.outsider.token, id), 404, 'not_found');
    expect(await locationRows()).toEqual(before);
    expect((await del(admin(), hiddenLocationId)).statusCode).toBe(204);
  });
});
