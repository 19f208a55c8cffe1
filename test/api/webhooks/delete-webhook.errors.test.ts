import { describe, expect, it } from 'vitest';
import { createToken, revokeToken } from '../../../src/accounts/service.js';
import { systemActor } from '../../../src/shared/actor.js';
import { h, itRejectsMalformedIds, keptWebhook, refusedBy, snapshotOf, useHarness } from './_security.js';

// DELETE /webhooks/{id} refusals: the standard error body, and the webhook, its deliveries and the log unchanged.

useHarness();
const hook = keptWebhook({}, async (hook) => {
  // A queued delivery (no worker runs in this file), so "nothing changes" covers deliveries too.
  const ping = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/ping` });
  expect(ping.statusCode).toBe(202);
});

const snapshot = snapshotOf('webhooks', 'deliveries', 'attempts', 'events');

const refused = (opts: { token?: string | null; id?: string; headers?: Record<string, string> }, status: number, code: string) =>
  refusedBy(
    (token) => h.call(token, { method: 'DELETE', url: `/webhooks/${opts.id ?? hook.id}`, headers: opts.headers ?? {} }),
    opts.token,
    snapshot,
    status,
    code,
    (res) => expect(res.headers['content-type']).toMatch(/^application\/json/),
  );

describe('DELETE /webhooks/{id} errors', () => {
  itRejectsMalformedIds(
    ['abc', '123', '00000000-0000-4000-8000-00000000000', `${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(13)}`],
    refused,
  );

  it('an unknown uuid: 404', async () => {
    await refused({ id: '00000000-0000-4000-8000-000000000000' }, 404, 'not_found');
    await refused({ id: '0190a6f2-1111-7222-8333-444455556666' }, 404, 'not_found');
  });

  it('no token, an unknown token, a malformed Authorization: 401', async () => {
    await refused({ token: null }, 401, 'unauthorized');
    await refused({ token: 'lst_unknown' }, 401, 'unauthorized');
    await refused({ token: null, headers: { authorization: 'Basic abc' } }, 401, 'unauthorized');
  });

  it('a revoked token: 401, and the webhook stays', async () => {
    const t = await createToken(h.deps.db, systemActor('cli'), { userId: h.a.admin.id, organizationId: h.a.orgId, name: 'short-lived' });
    await revokeToken(h.deps.db, systemActor('cli'), t.id);
    await refused({ token: t.token }, 401, 'unauthorized');
  });

  it('the webhook and its queued delivery are still there after all of that', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${hook.id}/deliveries` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(1);
  });
});
