import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

// Only organization admins ping (members 403); another organization's webhook is 404, never 403. A refused ping
// creates no event and no delivery, so nothing is ever sent to another tenant's receiver.

let h: Harness;
let aHook: { id: string; signing_key: string };
let bHook: { id: string; signing_key: string };
beforeAll(async () => {
  h = await startHarness();
  aHook = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/a' } })).json();
  bHook = (await h.call(h.b.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.b.orgId, url: 'https://hooks.example.org/b' } })).json();
});
afterAll(() => h?.close());

const snapshot = async () => ({
  webhooks: await h.deps.db.selectFrom('webhooks').selectAll().orderBy('id').execute(),
  deliveries: await h.deps.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute(),
  events: await h.deps.db.selectFrom('events').selectAll().orderBy('id').execute(),
});
const ping = (token: string, id: string) => h.call(token, { method: 'POST', url: `/webhooks/${id}/ping` });

describe('POST /webhooks/{id}/ping security', () => {
  it('members get 403; no event, no delivery', async () => {
    const before = await snapshot();
    for (const token of [h.a.member.token, h.a.outsider.token]) {
      const res = await ping(token, aHook.id);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden' });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('another organization\'s webhook: 404 for A\'s admin and members; nothing queued for B', async () => {
    const before = await snapshot();
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      const res = await ping(token, bHook.id);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
      for (const secret of [bHook.id, bHook.signing_key, h.b.orgId]) expect(res.body).not.toContain(secret);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a disabled foreign webhook is still 404, not 409 (its state is not revealed)', async () => {
    expect((await h.call(h.b.admin.token, { method: 'PUT', url: `/webhooks/${bHook.id}`, payload: { is_enabled: false } })).statusCode).toBe(200);
    try {
      const before = await snapshot();
      const res = await ping(h.a.admin.token, bHook.id);
      expect(res.statusCode, res.body).toBe(404);
      expect(await snapshot()).toEqual(before);
    } finally {
      await h.call(h.b.admin.token, { method: 'PUT', url: `/webhooks/${bHook.id}`, payload: { is_enabled: true } });
    }
  });

  it('B\'s id answers exactly like an id that exists nowhere', async () => {
    const foreign = await ping(h.a.admin.token, bHook.id);
    const missing = await ping(h.a.admin.token, '00000000-0000-4000-8000-000000000000');
    expect([foreign.statusCode, foreign.json().code, foreign.json().message]).toEqual([missing.statusCode, missing.json().code, missing.json().message]);
  });

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
