import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

// Only organization admins redeliver (members 403). Another organization's webhook id or delivery id is 404,
// never 403, in every combination, and nothing is queued: one tenant cannot make the service send another
// tenant's events anywhere.

let h: Harness;
let aHook: { id: string };
let bHook: { id: string };
let aDelivery: { id: string; event_id: string };
let bDelivery: { id: string; event_id: string };
beforeAll(async () => {
  h = await startHarness();
  aHook = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/a' } })).json();
  bHook = (await h.call(h.b.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.b.orgId, url: 'https://hooks.example.org/b' } })).json();
  aDelivery = (await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${aHook.id}/ping` })).json();
  bDelivery = (await h.call(h.b.admin.token, { method: 'POST', url: `/webhooks/${bHook.id}/ping` })).json();
});
afterAll(() => h?.close());

const snapshot = async () => ({
  webhooks: await h.deps.db.selectFrom('webhooks').selectAll().orderBy('id').execute(),
  deliveries: await h.deps.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute(),
  events: await h.deps.db.selectFrom('events').selectAll().orderBy('id').execute(),
});
const redeliver = (token: string, hookId: string, deliveryId: string) =>
  h.call(token, { method: 'POST', url: `/webhooks/${hookId}/deliveries/${deliveryId}/redeliver` });

describe('POST /webhooks/{id}/deliveries/{deliveryId}/redeliver security', () => {
  it('members get 403; nothing queued', async () => {
    const before = await snapshot();
    for (const token of [h.a.member.token, h.a.outsider.token]) {
      const res = await redeliver(token, aHook.id, aDelivery.id);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden' });
    }
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['B\'s webhook and B\'s delivery', () => [bHook.id, bDelivery.id]],
    ['B\'s webhook with A\'s delivery', () => [bHook.id, aDelivery.id]],
  ])('%s: 404 for A\'s admin and members, nothing queued, nothing of B returned', async (_label, ids) => {
    const [hookId, deliveryId] = ids() as [string, string];
    const before = await snapshot();
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      const res = await redeliver(token, hookId, deliveryId);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
      for (const secret of [bHook.id, bDelivery.id, bDelivery.event_id, h.b.orgId]) expect(res.body).not.toContain(secret);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('A\'s webhook with B\'s delivery: 404 for A\'s admin; members get the 403 their role gets for any delivery id', async () => {
    const before = await snapshot();
    const res = await redeliver(h.a.admin.token, aHook.id, bDelivery.id);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
    for (const secret of [bDelivery.id, bDelivery.event_id, h.b.orgId]) expect(res.body).not.toContain(secret);
    for (const token of [h.a.member.token, h.a.outsider.token]) {
      const foreign = await redeliver(token, aHook.id, bDelivery.id);
      const missing = await redeliver(token, aHook.id, '00000000-0000-4000-8000-000000000000');
      expect(foreign.statusCode, foreign.body).not.toBe(202);
      expect([foreign.statusCode, foreign.json().code, foreign.json().message]).toEqual([missing.statusCode, missing.json().code, missing.json().message]);
      for (const secret of [bDelivery.id, bDelivery.event_id, h.b.orgId]) expect(foreign.body).not.toContain(secret);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('foreign ids answer exactly like ids that exist nowhere', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const pairs: [string, string, string, string][] = [
      [bHook.id, bDelivery.id, missing, bDelivery.id],
      [aHook.id, bDelivery.id, aHook.id, missing],
    ];
    for (const [fh, fd, mh, md] of pairs) {
      const foreign = await redeliver(h.a.admin.token, fh, fd);
      const none = await redeliver(h.a.admin.token, mh, md);
      expect([foreign.statusCode, foreign.json().code, foreign.json().message]).toEqual([none.statusCode, none.json().code, none.json().message]);
    }
  });

  it('control: each admin redelivers their own, queued for their own webhook', async () => {
    const a = await redeliver(h.a.admin.token, aHook.id, aDelivery.id);
    expect(a.statusCode).toBe(202);
    const b = await redeliver(h.b.admin.token, bHook.id, bDelivery.id);
    expect(b.statusCode).toBe(202);
    const rows = await h.deps.db.selectFrom('webhook_deliveries').select(['id', 'webhook_id', 'event_id']).where('id', 'in', [a.json().id, b.json().id]).orderBy('id').execute();
    expect(rows).toEqual([
      { id: a.json().id, webhook_id: aHook.id, event_id: aDelivery.event_id },
      { id: b.json().id, webhook_id: bHook.id, event_id: bDelivery.event_id },
    ].sort((x, y) => (x.id < y.id ? -1 : 1)));
  });
});
