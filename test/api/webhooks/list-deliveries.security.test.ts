import { beforeAll, describe, expect, it } from 'vitest';
import { aHook, bHook, h, snapshotOf, useHarness, webhookSecurityCases } from './_security.js';

// Only organization admins read a delivery log (members 403); another organization's log is 404, never 403, and
// nothing of it leaks (event ids, payloads, response bodies).

let bEventId: string;
useHarness({ b: 'organization' });
beforeAll(async () => {
  expect((await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${aHook.id}/ping` })).statusCode).toBe(202);
  const ping = await h.call(h.b.admin.token, { method: 'POST', url: `/webhooks/${bHook.id}/ping` });
  bEventId = ping.json().event_id;
});

const list = (token: string, id: string) => h.call(token, { method: 'GET', url: `/webhooks/${id}/deliveries` });

describe('GET /webhooks/{id}/deliveries security', () => {
  webhookSecurityCases(
    {
      call: list,
      snapshot: snapshotOf('webhooks', 'deliveries'),
      check: (res) => expect(res.headers['x-total-count']).toBeUndefined(),
      leaks: async () => {
        const bDeliveryIds = (
          await h.deps.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', bHook.id).execute()
        ).map((r) => r.id);
        expect(bDeliveryIds).toHaveLength(1);
        return [bEventId, ...bDeliveryIds];
      },
    },
    {
      members: 'members get 403 and no log',
      foreign: "another organization's webhook: 404 for A's admin and members, nothing of B's log returned",
      likeMissing: "B's id answers exactly like an id that exists nowhere",
    },
  );

  it("control: each admin sees exactly their own webhook's log", async () => {
    const a = await list(h.a.admin.token, aHook.id);
    expect(a.statusCode).toBe(200);
    expect(a.json()).toHaveLength(1);
    expect(a.body).not.toContain(bEventId);
    const b = await list(h.b.admin.token, bHook.id);
    expect(b.json().map((d: { event_id: string }) => d.event_id)).toEqual([bEventId]);
  });
});
