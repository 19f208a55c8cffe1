import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { dbState, expectError, expectValidation, revokedToken, UNKNOWN_ID } from './_helpers.js';

const h = useHarness();

describe('GET /inventory-items/{id} (errors)', () => {
  it('401 without a token, with an unknown token and with a revoked token; no ETag, no data', async () => {
    const url = `/inventory-items/${h.a.legacyLab.itemId}`;
    const revoked = await revokedToken(h, h.a);
    for (const res of [
      await h.call(null, { method: 'GET', url }),
      await h.call('lst_unknown', { method: 'GET', url }),
      await h.call(null, { method: 'GET', url, headers: { authorization: 'Bearer lst_unknown' } }),
      await h.call(revoked, { method: 'GET', url }),
    ]) {
      expectError(res, 401, 'unauthorized');
      expect(res.headers.etag).toBeUndefined();
      expect(res.body).not.toContain('Ethanol');
    }
  });

  it.each(['abc', '42', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', `${UNKNOWN_ID}0`])('422 naming id for a non-UUID id (%s)', async (id) => {
    expectValidation(await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${id}` }), 'id');
  });

  it('404 not_found for an unknown UUID, without an ETag', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${UNKNOWN_ID}` });
    expectError(res, 404, 'not_found');
    expect(res.headers.etag).toBeUndefined();
  });

  it('404 for an instance id or a lab id used as an item id', async () => {
    expectError(
      await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${h.a.migratedLab.instanceIds[0]}` }),
      404,
      'not_found',
    );
    expectError(await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${h.a.legacyLab.id}` }), 404, 'not_found');
  });

  it('errors change nothing', async () => {
    const before = await dbState(h);
    await h.call(h.a.admin.token, { method: 'GET', url: '/inventory-items/abc' });
    await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${UNKNOWN_ID}` });
    await h.call(null, { method: 'GET', url: `/inventory-items/${h.a.legacyLab.itemId}` });
    expect(await dbState(h)).toEqual(before);
  });
});
