import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { dbState, expectError, expectValidation, revokedToken } from './_helpers.js';

const h = useHarness();

describe('GET /inventory-items (errors)', () => {
  it('401 without a token, with an unknown token, an unknown Bearer token and a revoked token', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const res of [
      await h.call(null, { method: 'GET', url: '/inventory-items' }),
      await h.call('lst_unknown', { method: 'GET', url: '/inventory-items' }),
      await h.call(null, { method: 'GET', url: '/inventory-items', headers: { authorization: 'Bearer lst_unknown' } }),
      await h.call(revoked, { method: 'GET', url: '/inventory-items' }),
    ]) {
      expectError(res, 401, 'unauthorized');
      expect(res.body).not.toContain(h.a.legacyLab.itemId);
      expect(res.headers['x-total-count']).toBeUndefined();
    }
  });

  it.each(['0', '-1', 'abc', '1.5'])('422 naming page for page=%s', async (page) => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items?page=${page}` });
    expectValidation(res, 'page');
    expect(res.headers['x-total-count']).toBeUndefined();
  });

  it.each(['0', '101', 'abc', '-1', '10.5'])('422 naming per_page for per_page=%s', async (perPage) => {
    expectValidation(await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items?per_page=${perPage}` }), 'per_page');
  });

  it('422 for a bad page even together with a valid lab_id filter', async () => {
    expectValidation(await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items?lab_id=${h.a.legacyLab.id}&page=0` }), 'page');
  });

  it("a lab_id that is not one of the token's labs (even not a UUID) is [] with a total of 0, never an error", async () => {
    for (const labId of ['not-a-lab', '', '%27%20OR%201%3D1%20--']) {
      const res = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items?lab_id=${labId}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual([]);
      expect(res.headers['x-total-count']).toBe('0');
    }
  });

  it('errors change nothing', async () => {
    const before = await dbState(h);
    await h.call(h.a.admin.token, { method: 'GET', url: '/inventory-items?page=0' });
    await h.call(h.a.admin.token, { method: 'GET', url: '/inventory-items?per_page=101' });
    await h.call(null, { method: 'GET', url: '/inventory-items' });
    expect(await dbState(h)).toEqual(before);
  });
});
