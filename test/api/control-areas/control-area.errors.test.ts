import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';

// Bad input to the control-area and safety-settings endpoints: a clear error, nothing changed.

const h = useHarness();
const lab = () => h.a.migratedLab;
const url = () => `/locations/${lab().locationIds[1]}/control-area`;
const put = (payload: unknown, token = h.a.admin.token) => h.call(token, { method: 'PUT', url: url(), payload: payload as any });
const stored = () => h.deps.db.selectFrom('control_areas').selectAll().where('location_id', '=', lab().locationIds[1]!).executeTakeFirst();

describe('control areas: bad input', () => {
  it('422 for an unknown category, a state the code sets no limit for, a negative or duplicate limit; nothing stored', async () => {
    expectValidation(
      await put({ sprinklered: false, cabinets: false, limits: [{ category: 'unobtainium', state: 'liquid', limit: '1' }] }),
      'limits[0].category',
    );
    expectValidation(
      await put({ sprinklered: false, cabinets: false, limits: [{ category: 'flammable-liquid-ia', state: 'gas', limit: '1' }] }),
      'limits[0].state',
    );
    expectValidation(
      await put({ sprinklered: false, cabinets: false, limits: [{ category: 'flammable-liquid-ia', state: 'liquid', limit: '-1' }] }),
      'limits[0].limit',
    );
    const twice = { category: 'flammable-liquid-ia', state: 'liquid', limit: '1' };
    expectValidation(await put({ sprinklered: false, cabinets: false, limits: [twice, twice] }), 'limits[1]');
    expectValidation(await put({ sprinklered: false }), 'cabinets');
    expect(await stored()).toBeUndefined();
  });

  it('403 for a member who is not a manager; nothing stored', async () => {
    expectError(await put({ sprinklered: true, cabinets: false }, h.a.member.token), 403, 'forbidden');
    expectError(await h.call(h.a.member.token, { method: 'DELETE', url: url() }), 403, 'forbidden');
    expect(await stored()).toBeUndefined();
  });

  it('404 for a location that does not exist', async () => {
    expectError(await h.call(h.a.admin.token, { method: 'GET', url: '/locations/00000000-0000-4000-8000-000000000000/control-area' }), 404);
  });

  it('safety settings: 422 for an unknown mode, 403 for a member', async () => {
    const s = (payload: unknown, token = h.a.admin.token) =>
      h.call(token, { method: 'PUT', url: `/labs/${lab().id}/safety-settings`, payload: payload as any });
    expectValidation(await s({ segregation: 'shout', limits: 'warn' }), 'segregation');
    expectError(await s({ segregation: 'block', limits: 'block' }, h.a.member.token), 403, 'forbidden');
    const now = await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${lab().id}/safety-settings` });
    expect(now.json()).toMatchObject({ segregation: 'warn', limits: 'warn' });
  });
});
