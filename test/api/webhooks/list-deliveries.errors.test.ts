import { describe, expect, it } from 'vitest';
import {
  h,
  itIsNotFoundWhenUnknownOrDeleted,
  itRejectsMalformedIds,
  itRequiresToken,
  keptWebhook,
  refusedBy,
  snapshotOf,
  useHarness,
} from './_security.js';

// GET /webhooks/{id}/deliveries refusals: invalid paging 422 (§2), bad id 422, unknown 404, no token 401.

useHarness();
const hook = keptWebhook({}, async (hook) => {
  expect((await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/ping` })).statusCode).toBe(202);
});

const snapshot = snapshotOf('webhooks', 'deliveries');

const refused = (opts: { token?: string | null; id?: string; query?: string }, status: number, code: string) =>
  refusedBy(
    (token) => h.call(token, { method: 'GET', url: `/webhooks/${opts.id ?? hook.id}/deliveries${opts.query ?? ''}` }),
    opts.token,
    snapshot,
    status,
    code,
    (res) => expect(res.headers['x-total-count']).toBeUndefined(),
  );

describe('GET /webhooks/{id}/deliveries errors', () => {
  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=101', 'per_page'],
    ['per_page=x', 'per_page'],
  ])('?%s: 422 naming %s', async (query, field) => {
    const body = await refused({ query: `?${query}` }, 422, 'validation_failed');
    expect((body.errors ?? []).map((e) => e.field)).toContain(field);
  });

  it('per_page 1 and 100 are accepted (bounds), unknown query parameters ignored', async () => {
    for (const q of ['?per_page=1', '?per_page=100', '?status=failed&foo=bar']) {
      const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${hook.id}/deliveries${q}` });
      expect(res.statusCode, `${q}: ${res.body}`).toBe(200);
      expect(res.json()).toHaveLength(1);
    }
  });

  itRejectsMalformedIds(['abc', '7', '00000000-0000-4000-8000-00000000000g'], refused);

  itIsNotFoundWhenUnknownOrDeleted(refused);

  itRequiresToken(refused);
});
