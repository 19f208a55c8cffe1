import { beforeAll, describe, expect, it } from 'vitest';
import { aHook, bHook, h, itAnswersLikeMissing, itHidesForeign, itRefusesMembers, snapshotOf, useHarness } from './_security.js';

// Only organization admins replay (members 403); another organization's webhook is 404, never 403. A replay only
// ever schedules events of the webhook's own organization (and lab), so no tenant can have another's events sent.

let aLabHook: { id: string };
const RANGE = { from: '2000-01-01T00:00:00.000Z', to: '2999-01-01T00:00:00.000Z' };
useHarness({ b: 'organization' });
beforeAll(async () => {
  aLabHook = (
    await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/webhooks',
      payload: { lab_id: h.a.legacyLab.id, url: 'https://hooks.example.org/a-lab' },
    })
  ).json();
  // Events in both organizations within the range (besides the fixtures' own).
  for (const [token, itemId] of [
    [h.a.admin.token, h.a.legacyLab.itemId],
    [h.b.admin.token, h.b.legacyLab.itemId],
  ] as const) {
    expect((await h.call(token, { method: 'PUT', url: `/inventory-items/${itemId}`, payload: { quantity: '4' } })).statusCode).toBe(200);
  }
});

const snapshot = snapshotOf('webhooks', 'deliveries', 'events');
const replay = (token: string, id: string) => h.call(token, { method: 'POST', url: `/webhooks/${id}/replay`, payload: RANGE });

describe('POST /webhooks/{id}/replay security', () => {
  itRefusesMembers('members get 403; nothing scheduled', { call: replay, snapshot, id: () => [aHook.id, aLabHook.id] });

  itHidesForeign("another organization's webhook: 404 for A's admin and members; nothing scheduled", { call: replay, snapshot });

  it('a foreign webhook with an invalid range is 404 too when the body is well-formed (to < from checks come after)', async () => {
    const before = await snapshot();
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/webhooks/${bHook.id}/replay`,
      payload: { from: RANGE.to, to: RANGE.from },
    });
    expect(res.statusCode, res.body).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  itAnswersLikeMissing("B's id answers exactly like an id that exists nowhere", { call: replay });

  it("an organization webhook replays only its organization's events, a lab webhook only its lab's", async () => {
    const events = await h.deps.db.selectFrom('events').select(['id', 'organization_id', 'lab_id', 'type']).execute();
    const notPing = events.filter((e) => e.type !== 'com.labstock.webhook.ping');
    expect(notPing.some((e) => e.organization_id === h.b.orgId)).toBe(true);

    for (const [hook, expected] of [
      [aHook, notPing.filter((e) => e.organization_id === h.a.orgId)],
      [aLabHook, notPing.filter((e) => e.lab_id === h.a.legacyLab.id)],
    ] as const) {
      const deliveriesOf = () =>
        h.deps.db.selectFrom('webhook_deliveries').select(['id', 'event_id']).where('webhook_id', '=', hook.id).execute();
      const existing = new Set((await deliveriesOf()).map((d) => d.id));
      const res = await replay(h.a.admin.token, hook.id);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().scheduled).toBe(expected.length);
      const scheduled = (await deliveriesOf()).filter((d) => !existing.has(d.id));
      expect(scheduled.map((d) => d.event_id).sort()).toEqual(expected.map((e) => e.id).sort());
    }
    const bEventIds = new Set(events.filter((e) => e.organization_id === h.b.orgId).map((e) => e.id));
    const aDeliveries = await h.deps.db
      .selectFrom('webhook_deliveries')
      .select('event_id')
      .where('webhook_id', 'in', [aHook.id, aLabHook.id])
      .execute();
    expect(aDeliveries.filter((d) => bEventIds.has(d.event_id))).toEqual([]);
  });
});
