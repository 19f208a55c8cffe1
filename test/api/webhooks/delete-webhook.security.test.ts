import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

// Only organization admins delete webhooks (members 403); another organization's webhook is 404, never 403, and
// stays with its deliveries. Nothing changes after any refusal.

let h: Harness;
let aHook: { id: string; signing_key: string };
let bHook: { id: string; signing_key: string };
beforeAll(async () => {
  h = await startHarness();
  aHook = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/a' } })).json();
  bHook = (await h.call(h.b.admin.token, { method: 'POST', url: '/webhooks', payload: { lab_id: h.b.legacyLab.id, url: 'https://hooks.example.org/b' } })).json();
  // Each has a queued delivery (no worker here), so a wrongful delete would take rows from two tables.
  for (const [token, id] of [[h.a.admin.token, aHook.id], [h.b.admin.token, bHook.id]] as const) {
    expect((await h.call(token, { method: 'POST', url: `/webhooks/${id}/ping` })).statusCode).toBe(202);
  }
});
afterAll(() => h?.close());

const snapshot = async () => ({
  webhooks: await h.deps.db.selectFrom('webhooks').selectAll().orderBy('id').execute(),
  deliveries: await h.deps.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute(),
  attempts: await h.deps.db.selectFrom('webhook_attempts').selectAll().orderBy('id').execute(),
  events: await h.deps.db.selectFrom('events').selectAll().orderBy('id').execute(),
});

const del = (token: string, id: string) => h.call(token, { method: 'DELETE', url: `/webhooks/${id}` });

describe('DELETE /webhooks/{id} security', () => {
  it('members (with or without labs) get 403 for their organization\'s webhook; nothing is deleted', async () => {
    const before = await snapshot();
    for (const token of [h.a.member.token, h.a.outsider.token]) {
      const res = await del(token, aHook.id);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden', message: expect.any(String) });
      expect(res.body).not.toContain(aHook.signing_key);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('another organization\'s webhook: 404 for A\'s admin and A\'s members, B\'s rows untouched, nothing of B returned', async () => {
    const before = await snapshot();
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      const res = await del(token, bHook.id);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
      for (const secret of [bHook.id, bHook.signing_key, h.b.orgId, h.b.legacyLab.id]) expect(res.body).not.toContain(secret);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('B\'s id answers exactly like an id that exists nowhere', async () => {
    const foreign = await del(h.a.admin.token, bHook.id);
    const missing = await del(h.a.admin.token, '00000000-0000-4000-8000-000000000000');
    expect([foreign.statusCode, foreign.json().code, foreign.json().message]).toEqual([missing.statusCode, missing.json().code, missing.json().message]);
  });

  it('B\'s admin cannot delete A\'s webhook either (404)', async () => {
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
