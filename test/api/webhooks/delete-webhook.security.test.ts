import { beforeAll, describe, expect, it } from 'vitest';
import { aHook, bHook, h, snapshotOf, useHarness, webhookSecurityCases } from './_security.js';

// Only organization admins delete webhooks (members 403); another organization's webhook is 404, never 403, and
// stays with its deliveries. Nothing changes after any refusal.

useHarness({ b: 'lab' });
beforeAll(async () => {
  // Each has a queued delivery (no worker here), so a wrongful delete would take rows from two tables.
  for (const [token, id] of [
    [h.a.admin.token, aHook.id],
    [h.b.admin.token, bHook.id],
  ] as const) {
    expect((await h.call(token, { method: 'POST', url: `/webhooks/${id}/ping` })).statusCode).toBe(202);
  }
});

const snapshot = snapshotOf('webhooks', 'deliveries', 'attempts', 'events');

const del = (token: string, id: string) => h.call(token, { method: 'DELETE', url: `/webhooks/${id}` });

describe('DELETE /webhooks/{id} security', () => {
  webhookSecurityCases(
    { call: del, snapshot, leaks: () => [h.b.legacyLab.id] },
    {
      members: "members (with or without labs) get 403 for their organization's webhook; nothing is deleted",
      foreign: "another organization's webhook: 404 for A's admin and A's members, B's rows untouched, nothing of B returned",
      likeMissing: "B's id answers exactly like an id that exists nowhere",
    },
  );

  it("B's admin cannot delete A's webhook either (404)", async () => {
    const before = await snapshot();
    const res = await del(h.b.admin.token, aHook.id);
    expect(res.statusCode, res.body).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('controls: each admin deletes their own webhook, taking only its own rows', async () => {
    const bDeliveries = await h.deps.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', bHook.id).execute();
    expect((await del(h.a.admin.token, aHook.id)).statusCode).toBe(204);
    expect(await h.deps.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', bHook.id).execute()).toEqual(bDeliveries);
    expect((await h.call(h.b.admin.token, { method: 'GET', url: `/webhooks/${bHook.id}` })).statusCode).toBe(200);
    expect((await del(h.b.admin.token, bHook.id)).statusCode).toBe(204);
    expect(await h.deps.db.selectFrom('webhook_deliveries').selectAll().execute()).toEqual([]);
  });
});
