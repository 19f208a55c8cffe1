// PATCH /locations/{id}: another organization's locations and parents, a lab the member is not in, and no token.
import { describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { createLocation } from '../../../src/locations/service.js';
import { revokedToken } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { locationFixture } from '../../helpers/locations.js';
import { useHarness } from '../../helpers/use-harness.js';

/** A location in a migrated lab of org A that the member does not belong to. */
let hiddenLocationId: string;
const h = useHarness({}, async (h) => {
  const lab = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Hidden migrated lab', usesInstances: true });
  hiddenLocationId = (await createLocation(h.deps.db, h.a.admin.actor, { labId: lab.id, parentId: null, name: 'Secret room' })).id;
});
const { admin, locationRows } = locationFixture(h);

const patch = (token: string | null, id: string, payload: unknown) =>
  h.call(token, { method: 'PATCH', url: `/locations/${id}`, payload: payload as any });
describe('PATCH /locations/{id} (security)', () => {
  it("gives 404 for another organization's location, and changes nothing", async () => {
    const [bRoom] = h.b.migratedLab.locationIds;
    expect((await h.call(admin(), { method: 'PATCH', url: `/locations/${bRoom}`, payload: { name: 'Hacked' } })).statusCode).toBe(404);
    const row = await h.deps.db.selectFrom('locations').select('name').where('id', '=', bRoom!).executeTakeFirstOrThrow();
    expect(row.name).toBe('Room 101');
  });

  it('org A tokens get 404 for org B locations (no data), and cannot move a location under an org B parent', async () => {
    const before = await locationRows();
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const id of h.b.migratedLab.locationIds) {
        const res = await patch(token, id, { name: 'Hijacked' });
        expectError(res, 404, 'not_found');
        expect(res.body).not.toMatch(/Room 101|Freezer A|Shelf 2|pathNames/);
      }
    }
    expectError(await patch(admin(), h.a.migratedLab.locationIds[2]!, { parent_id: h.b.migratedLab.locationIds[1] }), 404, 'not_found');
    expect(await locationRows()).toEqual(before);
  });

  it('401 without a token, with an unknown token and with a revoked token; nothing changes', async () => {
    const revoked = await revokedToken(h, h.a);
    const before = await locationRows();
    for (const token of [null, 'lst_unknown', revoked]) {
      expectError(await patch(token, h.a.migratedLab.locationIds[0]!, { name: 'Anonymous' }), 401, 'unauthorized');
    }
    expect(await locationRows()).toEqual(before);
  });

  it('the member gets 404 for a location of a lab they do not belong to; the outsider for every location; the admin renames it', async () => {
    const before = await locationRows();
    const res = await patch(h.a.member.token, hiddenLocationId, { name: 'Sneaky' });
    expectError(res, 404, 'not_found');
    expect(res.body).not.toContain('Secret room');
    for (const id of [hiddenLocationId, h.a.migratedLab.locationIds[0]!]) {
      expectError(await patch(h.a.outsider.token, id, { name: 'Sneaky' }), 404, 'not_found');
    }
    expect(await locationRows()).toEqual(before);
    const asAdmin = await patch(admin(), hiddenLocationId, { name: 'Renamed secret room' });
    expect(asAdmin.statusCode, asAdmin.body).toBe(200);
  });
});
