import { describe, expect, it } from 'vitest';
import {
  h,
  itIsNotFoundWhenUnknownOrDeleted,
  itRefusesWhileDisabled,
  itRejectsMalformedIds,
  itRequiresToken,
  keptWebhook,
  refusedBy,
  snapshotOf,
  useHarness,
} from './_security.js';

// POST /webhooks/{id}/ping refusals: 409 for a disabled webhook, 422/404/401 as everywhere; no event and no
// delivery is created by a refused ping.

useHarness();
const hook = keptWebhook();

const snapshot = snapshotOf('webhooks', 'deliveries', 'events');

const refused = (opts: { token?: string | null; id?: string }, status: number, code: string) =>
  refusedBy((token) => h.call(token, { method: 'POST', url: `/webhooks/${opts.id ?? hook.id}/ping` }), opts.token, snapshot, status, code);

describe('POST /webhooks/{id}/ping errors', () => {
  itRefusesWhileDisabled('a webhook disabled by a user: 409, no event, no delivery', () => hook.id, refused);

  it('a webhook created disabled: 409', async () => {
    const off = (
      await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/webhooks',
        payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/off', is_enabled: false },
      })
    ).json();
    await refused({ id: off.id }, 409, 'conflict');
  });

  it('a webhook disabled by the service (receiver answered 410): 409', async () => {
    const auto = (
      await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/webhooks',
        payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/gone' },
      })
    ).json();
    await h.deps.db
      .updateTable('webhooks')
      .set({ is_enabled: 0, disabled_reason: 'the receiver answered 410 Gone' })
      .where('id', '=', auto.id)
      .execute();
    await refused({ id: auto.id }, 409, 'conflict');
  });

  itRejectsMalformedIds(['abc', '42', '00000000-0000-4000-8000-0000000000zz'], refused);

  itIsNotFoundWhenUnknownOrDeleted(refused);

  itRequiresToken(refused);

  it('control: the enabled webhook is pinged (202), creating one event and one delivery', async () => {
    const before = await snapshot();
    const res = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/ping` });
    expect(res.statusCode, res.body).toBe(202);
    const after = await snapshot();
    expect(after.events.length - before.events.length).toBe(1);
    expect(after.deliveries.length - before.deliveries.length).toBe(1);
  });
});
