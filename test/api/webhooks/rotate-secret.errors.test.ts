import { describe, expect, it } from 'vitest';
import { h, itRejectsMalformedIds, itRequiresToken, keptWebhook, refusedBy, snapshotOf, useHarness } from './_security.js';

// POST /webhooks/{id}/rotate-secret refusals: the standard error body, and the keys unchanged.

useHarness();
const hook = keptWebhook();

const snapshot = snapshotOf('webhooks');

const refused = (opts: { token?: string | null; id?: string }, status: number, code: string) =>
  refusedBy(
    (token) => h.call(token, { method: 'POST', url: `/webhooks/${opts.id ?? hook.id}/rotate-secret` }),
    opts.token,
    snapshot,
    status,
    code,
    (res) => expect(res.body).not.toContain('whsec_'),
  );

describe('POST /webhooks/{id}/rotate-secret errors', () => {
  itRejectsMalformedIds(['abc', '1', 'not-a-uuid-at-all-0000000000000000000'], refused);

  it('an unknown uuid: 404', async () => {
    await refused({ id: '00000000-0000-4000-8000-000000000000' }, 404, 'not_found');
  });

  itRequiresToken(refused);

  it('a deleted webhook: 404', async () => {
    const gone = (
      await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/webhooks',
        payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/gone' },
      })
    ).json();
    expect((await h.call(h.a.admin.token, { method: 'DELETE', url: `/webhooks/${gone.id}` })).statusCode).toBe(204);
    await refused({ id: gone.id }, 404, 'not_found');
  });

  it('the key is still the one issued at create, with no previous key', async () => {
    const row = await h.deps.db.selectFrom('webhooks').selectAll().where('id', '=', hook.id).executeTakeFirstOrThrow();
    expect([row.signing_key, row.previous_signing_key, row.previous_key_expires_at]).toEqual([hook.signing_key, null, null]);
  });
});
