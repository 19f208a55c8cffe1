import { describe, expect, it } from 'vitest';
import { dbState, revokedToken } from '../../helpers/data.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

describe('GET /labs (errors)', () => {
  it('401 without a token, with an unknown token and with a revoked token', async () => {
    expectError(await h.call(null, { method: 'GET', url: '/labs' }), 401, 'unauthorized');
    expectError(await h.call('lst_unknown', { method: 'GET', url: '/labs' }), 401, 'unauthorized');
    const revoked = await revokedToken(h, h.a);
    const res = await h.call(revoked, { method: 'GET', url: '/labs' });
    const body = expectError(res, 401, 'unauthorized');
    expect(Array.isArray(body)).toBe(false);
    expect(res.body).not.toContain(h.a.legacyLab.id);
  });

  it('401 with an unknown Bearer token', async () => {
    expectError(await h.call(null, { method: 'GET', url: '/labs', headers: { authorization: 'Bearer lst_nope' } }), 401, 'unauthorized');
  });

  it.each(['0', '-1', 'abc', '1.5', ''])('422 naming page for page=%s', async (page) => {
    expectValidation(await h.call(h.a.admin.token, { method: 'GET', url: `/labs?page=${page}` }), 'page');
  });

  it.each(['0', '101', 'abc', '-5', '2.5'])('422 naming per_page for per_page=%s', async (perPage) => {
    expectValidation(await h.call(h.a.admin.token, { method: 'GET', url: `/labs?per_page=${perPage}` }), 'per_page');
  });

  it('accepts the per_page bounds 1 and 100', async () => {
    const one = await h.call(h.a.admin.token, { method: 'GET', url: '/labs?per_page=1' });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toHaveLength(1);
    const hundred = await h.call(h.a.admin.token, { method: 'GET', url: '/labs?per_page=100' });
    expect(hundred.statusCode).toBe(200);
    expect(hundred.json()).toHaveLength(3);
  });

  it.each(['abc', '123', `${'0'.repeat(36)}`])('422 naming organization_id for a non-UUID organization_id (%s)', async (value) => {
    expectValidation(await h.call(h.a.admin.token, { method: 'GET', url: `/labs?organization_id=${value}` }), 'organization_id');
  });

  it('401 is checked before validation: no token and a bad page gives 401', async () => {
    expectError(await h.call(null, { method: 'GET', url: '/labs?page=0' }), 401, 'unauthorized');
  });

  it('errors change nothing', async () => {
    const before = await dbState(h);
    await h.call(h.a.admin.token, { method: 'GET', url: '/labs?page=0' });
    await h.call(null, { method: 'GET', url: '/labs' });
    await h.call(h.a.admin.token, { method: 'GET', url: '/labs?organization_id=x' });
    expect(await dbState(h)).toEqual(before);
  });
});
