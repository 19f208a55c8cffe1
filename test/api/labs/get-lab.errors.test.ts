import { describe, expect, it } from 'vitest';
import { dbState, revokedToken } from '../../helpers/data.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { UNKNOWN_ID } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

describe('GET /labs/{id} (errors)', () => {
  it('401 without a token, with an unknown token and with a revoked token', async () => {
    const url = `/labs/${h.a.legacyLab.id}`;
    for (const res of [
      await h.call(null, { method: 'GET', url }),
      await h.call('lst_unknown', { method: 'GET', url }),
      await h.call(await revokedToken(h, h.a), { method: 'GET', url }),
      await h.call(null, { method: 'GET', url, headers: { authorization: 'Bearer lst_unknown' } }),
    ]) {
      expectError(res, 401, 'unauthorized');
      expect(res.body).not.toContain('Legacy lab A');
    }
  });

  it.each(['abc', '123', 'not-a-uuid-at-all-0000000000000000000', `${UNKNOWN_ID}x`])('422 naming id for a non-UUID id (%s)', async (id) => {
    expectValidation(await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${id}` }), 'id');
  });

  it('404 not_found for an unknown UUID', async () => {
    const body = expectError(await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${UNKNOWN_ID}` }), 404, 'not_found');
    expect(body).not.toHaveProperty('organization');
  });

  it('errors change nothing', async () => {
    const before = await dbState(h);
    await h.call(h.a.admin.token, { method: 'GET', url: '/labs/abc' });
    await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${UNKNOWN_ID}` });
    await h.call(null, { method: 'GET', url: `/labs/${h.a.legacyLab.id}` });
    expect(await dbState(h)).toEqual(before);
  });
});
