import { describe, expect, it } from 'vitest';
import { expectError, h, useHarness } from './_security.js';

useHarness();

describe('GET /webhooks errors', () => {
  it('no token: 401', async () => {
    expectError(await h.call(null, { method: 'GET', url: '/webhooks' }), 401, 'unauthorized');
  });

  it('unknown token, in either header: 401', async () => {
    expectError(await h.call('lst_nope', { method: 'GET', url: '/webhooks' }), 401, 'unauthorized');
    expectError(
      await h.call(null, { method: 'GET', url: '/webhooks', headers: { authorization: 'Bearer lst_nope' } }),
      401,
      'unauthorized',
    );
  });

  it.each(['page=0', 'page=-1', 'page=abc', 'page=1.5', 'per_page=0', 'per_page=101', 'per_page=x'])(
    'invalid %s: 422 naming the parameter',
    async (q) => {
      const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks?${q}` });
      expectError(res, 422, 'validation_failed');
      const param = q.split('=')[0]!;
      expect(
        res
          .json()
          .errors.map((e: { field: string }) => e.field)
          .join(' '),
      ).toContain(param);
    },
  );

  it('organization_id that is not a uuid: 422', async () => {
    expectError(await h.call(h.a.admin.token, { method: 'GET', url: '/webhooks?organization_id=org-1' }), 422, 'validation_failed');
  });

  it('per_page 100 and 1 are accepted', async () => {
    for (const q of ['per_page=100', 'per_page=1'])
      expect((await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks?${q}` })).statusCode).toBe(200);
  });
});
