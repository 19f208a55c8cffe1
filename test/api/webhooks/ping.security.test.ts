import { describe, expect, it } from 'vitest';
import { aHook, bHook, h, itAnswersLikeMissing, itHidesForeign, itRefusesMembers, snapshotOf, useHarness } from './_security.js';

// Only organization admins ping (members 403); another organization's webhook is 404, never 403. A refused ping
// creates no event and no delivery, so nothing is ever sent to another tenant's receiver.

useHarness({ b: 'organization' });

const snapshot = snapshotOf('webhooks', 'deliveries', 'events');
const ping = (token: string, id: string) => h.call(token, { method: 'POST', url: `/webhooks/${id}/ping` });

describe('POST /webhooks/{id}/ping security', () => {
  itRefusesMembers('members get 403; no event, no delivery', { call: ping, snapshot });

  itHidesForeign("another organization's webhook: 404 for A's admin and members; nothing queued for B", { call: ping, snapshot });

  it('a disabled foreign webhook is still 404, not 409 (its state is not revealed)', async () => {
    expect(
      (await h.call(h.b.admin.token, { method: 'PUT', url: `/webhooks/${bHook.id}`, payload: { is_enabled: false } })).statusCode,
    ).toBe(200);
    try {
      const before = await snapshot();
      const res = await ping(h.a.admin.token, bHook.id);
      expect(res.statusCode, res.body).toBe(404);
      expect(await snapshot()).toEqual(before);
    } finally {
      await h.call(h.b.admin.token, { method: 'PUT', url: `/webhooks/${bHook.id}`, payload: { is_enabled: true } });
    }
  });

  itAnswersLikeMissing("B's id answers exactly like an id that exists nowhere", { call: ping });

  it('control: each admin pings their own; the event is stored in that organization only', async () => {
    const res = await ping(h.a.admin.token, aHook.id);
    expect(res.statusCode).toBe(202);
    const event = await h.deps.db.selectFrom('events').selectAll().where('id', '=', res.json().event_id).executeTakeFirstOrThrow();
    expect(event.organization_id).toBe(h.a.orgId);
    const deliveries = await h.deps.db.selectFrom('webhook_deliveries').select('webhook_id').where('event_id', '=', event.id).execute();
    expect(deliveries).toEqual([{ webhook_id: aHook.id }]);
    expect((await ping(h.b.admin.token, bHook.id)).statusCode).toBe(202);
  });
});
