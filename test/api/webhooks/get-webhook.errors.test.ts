import { describe, expect, it } from 'vitest';
import { expectError, h, keptWebhook, useHarness } from './_security.js';

useHarness();
const hook = keptWebhook({ url: 'https://hooks.example.org/a' });

describe('GET /webhooks/{id} errors', () => {
  it('no token: 401, and no webhook data', async () => {
    const res = await h.call(null, { method: 'GET', url: `/webhooks/${hook.id}` });
    expectError(res, 401, 'unauthorized');
    expect(res.body).not.toMatch(/whsec_/);
  });

  it('a revoked-looking or unknown token: 401', async () => {
    expectError(
      await h.call('lst_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { method: 'GET', url: `/webhooks/${hook.id}` }),
      401,
      'unauthorized',
    );
  });

  it('an id that is not a uuid: 422 naming id', async () => {
    for (const id of ['123', 'not-a-uuid', `${hook.id}x`]) {
      const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${id}` });
      expectError(res, 422, 'validation_failed');
      expect(
        res
          .json()
          .errors.map((e: { field: string }) => e.field)
          .join(' '),
      ).toContain('id');
    }
  });

  it('a uuid that is no webhook: 404', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', h.a.legacyLab.id, h.a.orgId]) {
      expectError(await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${id}` }), 404, 'not_found');
    }
  });

  it('an unknown sub-path: 404', async () => {
    expectError(await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${hook.id}/nothing-here` }), 404, 'not_found');
  });
});
