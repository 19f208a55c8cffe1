import { beforeAll, describe, expect, it } from 'vitest';
import { aHook, bHook, expectSameAnswer, GHOST_ID, h, itHidesForeign, itRefusesMembers, snapshotOf, useHarness } from './_security.js';

// Only organization admins redeliver (members 403). Another organization's webhook id or delivery id is 404,
// never 403, in every combination, and nothing is queued: one tenant cannot make the service send another
// tenant's events anywhere.

let aDelivery: { id: string; event_id: string };
let bDelivery: { id: string; event_id: string };
useHarness({ b: 'organization' });
beforeAll(async () => {
  aDelivery = (await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${aHook.id}/ping` })).json();
  bDelivery = (await h.call(h.b.admin.token, { method: 'POST', url: `/webhooks/${bHook.id}/ping` })).json();
});

const snapshot = snapshotOf('webhooks', 'deliveries', 'events');
const redeliver = (token: string, hookId: string, deliveryId: string) =>
  h.call(token, { method: 'POST', url: `/webhooks/${hookId}/deliveries/${deliveryId}/redeliver` });

describe('POST /webhooks/{id}/deliveries/{deliveryId}/redeliver security', () => {
  itRefusesMembers('members get 403; nothing queued', { call: (token, id) => redeliver(token, id, aDelivery.id), snapshot });

  for (const [label, deliveryId] of [
    ["B's webhook and B's delivery", () => bDelivery.id],
    ["B's webhook with A's delivery", () => aDelivery.id],
  ] as const) {
    itHidesForeign(`${label}: 404 for A's admin and members, nothing queued, nothing of B returned`, {
      call: (token, id) => redeliver(token, id, deliveryId()),
      snapshot,
      leaks: () => [bDelivery.id, bDelivery.event_id],
    });
  }

  it("A's webhook with B's delivery: 404 for A's admin; members get the 403 their role gets for any delivery id", async () => {
    const before = await snapshot();
    const res = await redeliver(h.a.admin.token, aHook.id, bDelivery.id);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
    for (const secret of [bDelivery.id, bDelivery.event_id, h.b.orgId]) expect(res.body).not.toContain(secret);
    for (const token of [h.a.member.token, h.a.outsider.token]) {
      const foreign = await redeliver(token, aHook.id, bDelivery.id);
      const missing = await redeliver(token, aHook.id, GHOST_ID);
      expect(foreign.statusCode, foreign.body).not.toBe(202);
      expectSameAnswer(foreign, missing);
      for (const secret of [bDelivery.id, bDelivery.event_id, h.b.orgId]) expect(foreign.body).not.toContain(secret);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('foreign ids answer exactly like ids that exist nowhere', async () => {
    const pairs: [string, string, string, string][] = [
      [bHook.id, bDelivery.id, GHOST_ID, bDelivery.id],
      [aHook.id, bDelivery.id, aHook.id, GHOST_ID],
    ];
    for (const [fh, fd, mh, md] of pairs) {
      expectSameAnswer(await redeliver(h.a.admin.token, fh, fd), await redeliver(h.a.admin.token, mh, md));
    }
  });

  it('control: each admin redelivers their own, queued for their own webhook', async () => {
    const a = await redeliver(h.a.admin.token, aHook.id, aDelivery.id);
    expect(a.statusCode).toBe(202);
    const b = await redeliver(h.b.admin.token, bHook.id, bDelivery.id);
    expect(b.statusCode).toBe(202);
    const rows = await h.deps.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'webhook_id', 'event_id'])
      .where('id', 'in', [a.json().id, b.json().id])
      .orderBy('id')
      .execute();
    expect(rows).toEqual(
      [
        { id: a.json().id, webhook_id: aHook.id, event_id: aDelivery.event_id },
        { id: b.json().id, webhook_id: bHook.id, event_id: bDelivery.event_id },
      ].sort((x, y) => (x.id < y.id ? -1 : 1)),
    );
  });
});
