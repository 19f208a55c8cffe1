// DELETE /locations/{id}: locations still in use, unknown ids and invalid ids.
import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { locationFixture } from '../../helpers/locations.js';
import { UNKNOWN_ID } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();
const { admin, locationRows } = locationFixture(h);

const del = (id: string) => h.call(admin(), { method: 'DELETE', url: `/locations/${id}` });
describe('DELETE /locations/{id} (errors)', () => {
  it('refuses to delete a location with sub-locations or stored instances', async () => {
    const [room, , shelf] = h.a.migratedLab.locationIds;
    expect((await h.call(admin(), { method: 'DELETE', url: `/locations/${room}` })).statusCode).toBe(409);
    expect((await h.call(admin(), { method: 'DELETE', url: `/locations/${shelf}` })).statusCode).toBe(409);
  });

  it('409 conflict says why, and nothing is deleted', async () => {
    const [room, , shelf] = h.a.migratedLab.locationIds as [string, string, string];
    const before = await locationRows();
    expect(expectError(await del(room), 409, 'conflict').message).toMatch(/sub-locations/);
    expect(expectError(await del(shelf), 409, 'conflict').message).toMatch(/instances are stored/);
    expect(await locationRows()).toEqual(before);
  });

  it('404 for an unknown location, and for a second delete', async () => {
    expectError(await del(UNKNOWN_ID), 404, 'not_found');
    const created = await h.call(admin(), { method: 'POST', url: '/locations', payload: { lab_id: h.a.migratedLab.id, name: 'Brief' } });
    expect(created.statusCode, created.body).toBe(201);
    expect((await del(created.json().id)).statusCode).toBe(204);
    expectError(await del(created.json().id), 404, 'not_found');
  });

  it('422 naming id for a non-UUID id', async () => {
    expectValidation(await del('not-a-uuid'), 'id');
  });
});
