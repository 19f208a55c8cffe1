// POST /locations: labs without a tree, unknown labs and parents, name clashes and invalid bodies.
import { describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { createLocation } from '../../../src/locations/service.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { locationFixture } from '../../helpers/locations.js';
import { UNKNOWN_ID } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();
const { admin, create, locationRows } = locationFixture(h);

describe('POST /locations (errors)', () => {
  it('keeps the legacy-lab rule for seeding code, which calls the service as the org admin', async () => {
    await expect(createLocation(h.deps.db, h.a.admin.actor, { labId: h.a.legacyLab.id, parentId: null, name: 'Seeded' })).rejects.toThrow(
      /labs that use instances/,
    );
    await expect(
      createLocation(h.deps.db, h.a.admin.actor, { labId: '00000000-0000-7000-8000-000000000000', parentId: null, name: 'Nowhere' }),
    ).rejects.toThrow(/lab not found/);
  });

  it('has no tree in a legacy lab, and validates names and fields', async () => {
    expect((await create('X', null, h.a.legacyLab.id)).statusCode).toBe(409);
    expect((await create('')).statusCode).toBe(422);
    const extra = await h.call(admin(), {
      method: 'POST',
      url: '/locations',
      payload: { lab_id: h.a.migratedLab.id, name: 'X', color: 'red' },
    });
    expect(extra.statusCode).toBe(422);
    expect(extra.json().errors[0].field).toBe('color');
  });

  it('409 for a name its siblings already have (at the root and under a parent); nothing written', async () => {
    const before = await locationRows();
    expectError(await create('Room 101'), 409, 'conflict');
    expectError(await create('Freezer A', h.a.migratedLab.locationIds[0]!), 409, 'conflict');
    expect(await locationRows()).toEqual(before);
  });

  it('404 for an unknown lab, an unknown parent, and a parent in another lab of the organization; nothing written', async () => {
    const otherMigrated = await createLab(h.deps.db, h.a.admin.actor, {
      organizationId: h.a.orgId,
      name: 'Second migrated lab',
      usesInstances: true,
    });
    const elsewhere = await createLocation(h.deps.db, h.a.admin.actor, { labId: otherMigrated.id, parentId: null, name: 'Elsewhere' });
    const before = await locationRows();
    expectError(await create('X', null, UNKNOWN_ID), 404, 'not_found');
    expectError(await create('X', UNKNOWN_ID), 404, 'not_found');
    expectError(await create('X', elsewhere.id), 404, 'not_found');
    expect(await locationRows()).toEqual(before);
  });

  it('422 naming the field: missing or non-UUID lab_id, missing, too long or non-string name, non-UUID parent_id', async () => {
    const post = (payload: unknown) => h.call(admin(), { method: 'POST', url: '/locations', payload: payload as any });
    expectValidation(await post({ name: 'No lab' }), 'lab_id');
    expectValidation(await post({ lab_id: 'lab-1', name: 'X' }), 'lab_id');
    expectValidation(await post({ lab_id: h.a.migratedLab.id }), 'name');
    expectValidation(await post({ lab_id: h.a.migratedLab.id, name: 'x'.repeat(201) }), 'name');
    expectValidation(await post({ lab_id: h.a.migratedLab.id, name: 5 }), 'name');
    expectValidation(await post({ lab_id: h.a.migratedLab.id, name: 'X', parent_id: 'shelf' }), 'parent_id');
  });
});
