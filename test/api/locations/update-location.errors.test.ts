// PATCH /locations/{id}: cycles, depth, name clashes, unknown ids and parents, invalid bodies.
import { describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { createLocation } from '../../../src/locations/service.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { locationFixture } from '../../helpers/locations.js';
import { UNKNOWN_ID } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();
const { admin, create, locationRows, chain } = locationFixture(h);

const patch = (id: string, payload: unknown) => h.call(admin(), { method: 'PATCH', url: `/locations/${id}`, payload: payload as any });
describe('PATCH /locations/{id} (errors)', () => {
  it('refuses a move under its own descendant (a cycle), changing nothing', async () => {
    const ids = await chain('C', 3);
    const r = await h.call(admin(), { method: 'PATCH', url: `/locations/${ids[0]}`, payload: { parent_id: ids[2] } });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toMatch(/under itself/);
    const row = await h.deps.db.selectFrom('locations').select('parent_id').where('id', '=', ids[0]!).executeTakeFirstOrThrow();
    expect(row.parent_id).toBeNull();
    const self = await h.call(admin(), { method: 'PATCH', url: `/locations/${ids[0]}`, payload: { parent_id: ids[0] } });
    expect(self.statusCode).toBe(409);
  });

  it("counts the moved subtree's height against the seven levels", async () => {
    const deep = await chain('P', 4); // P1..P4, depth 4
    const sub = await chain('Q', 4); // Q1..Q4, height 4
    const tooDeep = await h.call(admin(), { method: 'PATCH', url: `/locations/${sub[0]}`, payload: { parent_id: deep[3] } });
    expect(tooDeep.statusCode).toBe(409);
    expect(tooDeep.json().message).toMatch(/8 levels/);
    const fits = await h.call(admin(), { method: 'PATCH', url: `/locations/${sub[1]}`, payload: { parent_id: deep[3] } });
    expect(fits.statusCode, fits.body).toBe(200);
    expect(fits.json().pathNames).toEqual(['P1', 'P2', 'P3', 'P4', 'Q2']);
  });

  it('409 for a name a sibling already has, by rename or by move; nothing changes', async () => {
    const room = h.a.migratedLab.locationIds[0]!;
    const [sibling] = await chain('Sibling ', 1, room);
    const atRoot = await create('Freezer A');
    expect(atRoot.statusCode, atRoot.body).toBe(201);
    const before = await locationRows();
    expectError(await patch(sibling!, { name: 'Freezer A' }), 409, 'conflict');
    expectError(await patch(atRoot.json().id, { parent_id: room }), 409, 'conflict');
    expect(await locationRows()).toEqual(before);
  });

  it('404 for an unknown location, an unknown parent, and a parent in another lab of the organization; nothing changes', async () => {
    const otherMigrated = await createLab(h.deps.db, h.a.admin.actor, {
      organizationId: h.a.orgId,
      name: 'Second migrated lab',
      usesInstances: true,
    });
    const elsewhere = await createLocation(h.deps.db, h.a.admin.actor, { labId: otherMigrated.id, parentId: null, name: 'Elsewhere' });
    const shelf = h.a.migratedLab.locationIds[2]!;
    const before = await locationRows();
    expectError(await patch(UNKNOWN_ID, { name: 'Ghost' }), 404, 'not_found');
    expectError(await patch(shelf, { parent_id: UNKNOWN_ID }), 404, 'not_found');
    expectError(await patch(shelf, { parent_id: elsewhere.id }), 404, 'not_found');
    expect(await locationRows()).toEqual(before);
  });

  it('422 naming the field: non-UUID id or parent_id, empty or too long name, unknown fields', async () => {
    expect((await h.call(admin(), { method: 'PATCH', url: '/locations/not-a-uuid', payload: {} })).statusCode).toBe(422);
    const shelf = h.a.migratedLab.locationIds[2]!;
    expectValidation(await patch('not-a-uuid', {}), 'id');
    expectValidation(await patch(shelf, { parent_id: 'room' }), 'parent_id');
    expectValidation(await patch(shelf, { name: '' }), 'name');
    expectValidation(await patch(shelf, { name: 'x'.repeat(201) }), 'name');
    expectValidation(await patch(shelf, { lab_id: h.a.legacyLab.id }), 'lab_id');
  });
});
