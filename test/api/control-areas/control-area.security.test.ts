import { describe, expect, it } from 'vitest';
import { expectError, expectNotFound } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';

// Tenancy (docs/safety.md): another organization's location or lab id answers 404, never data, and changes nothing.

const h = useHarness();
const loc = () => h.a.migratedLab.locationIds[0]!;

describe('control areas and safety settings: who sees what', () => {
  it("another organization's admin: 404 for this one's location and lab, nothing stored", async () => {
    const other = h.b.admin.token;
    expectNotFound(await h.call(other, { method: 'GET', url: `/locations/${loc()}/control-area` }));
    expectNotFound(
      await h.call(other, { method: 'PUT', url: `/locations/${loc()}/control-area`, payload: { sprinklered: true, cabinets: true } }),
    );
    expectNotFound(await h.call(other, { method: 'DELETE', url: `/locations/${loc()}/control-area` }));
    expectNotFound(await h.call(other, { method: 'GET', url: `/labs/${h.a.migratedLab.id}/safety-settings` }));
    expectNotFound(
      await h.call(other, {
        method: 'PUT',
        url: `/labs/${h.a.migratedLab.id}/safety-settings`,
        payload: { segregation: 'block', limits: 'block' },
      }),
    );
    expect(
      await h.deps.db.selectFrom('control_areas').select('location_id').where('location_id', '=', loc()).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await h.deps.db.selectFrom('lab_safety_settings').select('lab_id').where('lab_id', '=', h.a.migratedLab.id).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('a lab the member is not in: 404', async () => {
    expectNotFound(await h.call(h.a.member.token, { method: 'GET', url: `/labs/${h.a.otherLab.id}/safety-settings` }));
  });

  it('without a token: 401', async () => {
    expectError(await h.call(null, { method: 'GET', url: `/locations/${loc()}/control-area` }), 401);
    expectError(await h.call(null, { method: 'GET', url: `/labs/${h.a.migratedLab.id}/safety-settings` }), 401);
  });
});
