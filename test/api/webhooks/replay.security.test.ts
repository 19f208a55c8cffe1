import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

// Only organization admins replay (members 403); another organization's webhook is 404, never 403. A replay only
// ever schedules events of the webhook's own organization (and lab), so no tenant can have another's events sent.

let h: Harness;
let aHook: { id: string };
let aLabHook: { id: string };
let bHook: { id: string };
const RANGE = { from: '2000-01-01T00:00:00.000Z', to: '2999-01-01T00:00:00.000Z' };
beforeAll(async () => {
  h = await startHarness();
  aHook = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/a' } })).json();
  aLabHook = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { lab_id: h.a.legacyLab.id, url: 'https://hooks.example.org/a-lab' } })).json();
  bHook = (await h.call(h.b.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.b.orgId, url: 'https://hooks.example.org/b' } })).json();
  // Events in both organizations within the range (besides the fixtures' own).
  for (const [token, itemId] of [[h.a.admin.token, h.a.legacyLab.itemId], [h.b.admin.token, h.b.legacyLab.itemId]] as const) {
    expect((await h.call(token, { method: 'PUT', url: `/inventory-items/${itemId}`, payload: { quantity: '4' } })).statusCode).toBe(200);
  }
});
afterAll(() => h?.close());

const snapshot = async () => ({
  webhooks: await h.deps.db.selectFrom('webhooks').selectAll().orderBy('id').execute(),
  deliveries: await h.deps.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute(),
  events: await h.deps.db.selectFrom('events').selectAll().orderBy('id').execute(),
});
const replay = (token: string, id: string) => h.call(token, { method: 'POST', url: `/webhooks/${id}/replay`, payload: RANGE });

describe('POST /webhooks/{id}/replay security', () => {
  it('members get 403; nothing scheduled', async () => {
    const before = await snapshot();
    for (const token of [h.a.member.token, h.a.outsider.token]) {
      for (const id of [aHook.id, aLabHook.id]) {
        const res = await replay(token, id);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toMatchObject({ code: 'forbidden' });
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('another organization\'s webhook: 404 for A\'s admin and members; nothing scheduled', async () => {
    const before = await snapshot();
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      const res = await replay(token, bHook.id);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
      for (const secret of [bHook.id, h.b.orgId]) expect(res.body).not.toContain(secret);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a foreign webhook with an invalid range is 404 too when the body is well-formed (to < from checks come after)', async () => {
    const before = await snapshot();
    const res = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${bHook.id}/replay`, payload: { from: RANGE.to, to: RANGE.from } });
    expect(res.statusCode, res.body).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('B\'s id answers exactly like an id that exists nowhere', async () => {
    const foreign = await replay(h.a.admin.token, bHook.id);
    const missing = await replay(h.a.admin.token, '00000000-0000-4000-8000-000000000000');
    expect([foreign.statusCode, foreign.json().code, foreign.json().message]).toEqual([missing.statusCode, missing.json().code, missing.json().message]);
  });

  it('an organization webhook replays only its organization\'s events, a lab webhook only its lab\'s', async () => {
    const events = await h.deps.db.selectFrom('events').select(['id', 'organization_id', 'lab_id', 'type']).execute();
    const notPing = events.filter((e) => e.type !== 'com.labstock.webhook.ping');
    expect(notPing.some((e) => e.organization_id === h.b.orgId)).toBe(true);

    for (const [hook, expected] of [
      [aHook, notPing.filter((e) => e.organization_id === h.a.orgId)],
      [aLabHook, notPing.filter((e) => e.lab_id === h.a.legacyLab.id)],
    ] as const) {
      const deliveriesOf = () => h.deps.db.selectFrom('webhook_deliveries').select(['id', 'event_id']).where('webhook_id', '=', hook.id).execute();
      const existing = new Set((await deliveriesOf()).map((d) => d.id));
      const res = await replay(h.a.admin.token, hook.id);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().scheduled).toBe(expected.length);
      const scheduled = (await deliveriesOf()).filter((d) => !existing.has(d.id));
      expect(scheduled.map((d) => d.event_id).sort()).toEqual(expected.map((e) => e.id).sort());
    }
    const bEventIds = new Set(events.filter((e) => e.organization_id === h.b.orgId).map((e) => e.id));
    const aDeliveries = await h.deps.db.selectFrom('webhook_deliveries').select('event_id').where('webhook_id', 'in', [aHook.id, aLabHook.id]).execute();
    expect(aDeliveries.filter((d) => bEventIds.has(d.event_id))).toEqual([]);
  });
});
