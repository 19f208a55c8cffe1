import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

// Only organization admins read a delivery log (members 403); another organization's log is 404, never 403, and
// nothing of it leaks (event ids, payloads, response bodies).

let h: Harness;
let aHook: { id: string; signing_key: string };
let bHook: { id: string; signing_key: string };
let bEventId: string;
beforeAll(async () => {
  h = await startHarness();
  aHook = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/a' } })).json();
  bHook = (await h.call(h.b.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.b.orgId, url: 'https://hooks.example.org/b' } })).json();
  expect((await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${aHook.id}/ping` })).statusCode).toBe(202);
  const ping = await h.call(h.b.admin.token, { method: 'POST', url: `/webhooks/${bHook.id}/ping` });
  bEventId = ping.json().event_id;
});
afterAll(() => h?.close());

const list = (token: string, id: string) => h.call(token, { method: 'GET', url: `/webhooks/${id}/deliveries` });
const snapshot = async () => ({
  webhooks: await h.deps.db.selectFrom('webhooks').selectAll().orderBy('id').execute(),
  deliveries: await h.deps.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute(),
});

describe('GET /webhooks/{id}/deliveries security', () => {
  it('members get 403 and no log', async () => {
    const before = await snapshot();
    for (const token of [h.a.member.token, h.a.outsider.token]) {
      const res = await list(token, aHook.id);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden' });
      expect(res.headers['x-total-count']).toBeUndefined();
    }
    expect(await snapshot()).toEqual(before);
  });

  it('another organization\'s webhook: 404 for A\'s admin and members, nothing of B\'s log returned', async () => {
    const bDeliveryIds = (await h.deps.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', bHook.id).execute()).map((r) => r.id);
    expect(bDeliveryIds).toHaveLength(1);
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      const res = await list(token, bHook.id);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
      expect(res.headers['x-total-count']).toBeUndefined();
      for (const secret of [bHook.id, bHook.signing_key, h.b.orgId, bEventId, ...bDeliveryIds]) expect(res.body).not.toContain(secret);
    }
  });

  it('B\'s id answers exactly like an id that exists nowhere', async () => {
    const foreign = await list(h.a.admin.token, bHook.id);
    const missing = await list(h.a.admin.token, '00000000-0000-4000-8000-000000000000');
    expect([foreign.statusCode, foreign.json().code, foreign.json().message]).toEqual([missing.statusCode, missing.json().code, missing.json().message]);
  });

  it('control: each admin sees exactly their own webhook\'s log', async () => {
    const a = await list(h.a.admin.token, aHook.id);
    expect(a.statusCode).toBe(200);
    expect(a.json()).toHaveLength(1);
    expect(a.body).not.toContain(bEventId);
    const b = await list(h.b.admin.token, bHook.id);
    expect(b.json().map((d: { event_id: string }) => d.event_id)).toEqual([bEventId]);
  });
});
