import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

// Only organization admins update webhooks; another organization's webhook is 404 (never 403) and unchanged;
// a webhook cannot be moved to another organization or lab.

let h: Harness;
let aHook: { id: string; signing_key: string };
let bHook: { id: string; signing_key: string };
beforeAll(async () => {
  h = await startHarness();
  aHook = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/a' } })).json();
  bHook = (await h.call(h.b.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.b.orgId, url: 'https://hooks.example.org/b' } })).json();
});
afterAll(() => h?.close());

const rowOf = (id: string) => h.deps.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('PUT /webhooks/{id} security', () => {
  it('a member gets 403 for the organization\'s webhook, which stays unchanged', async () => {
    const before = await rowOf(aHook.id);
    for (const token of [h.a.member.token, h.a.outsider.token]) {
      const res = await h.call(token, { method: 'PUT', url: `/webhooks/${aHook.id}`, payload: { is_enabled: false, url: 'https://attacker.example.net/' } });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden' });
      expect(res.body).not.toContain(aHook.signing_key);
    }
    expect(await rowOf(aHook.id)).toEqual(before);
  });

  it('another organization\'s webhook: 404 for A\'s admin, B\'s row unchanged, nothing of B returned', async () => {
    const before = await rowOf(bHook.id);
    for (const payload of [{ is_enabled: false }, { url: 'https://attacker.example.net/' }, { name: 'pwned', event_types: [] }, {}]) {
      const res = await h.call(h.a.admin.token, { method: 'PUT', url: `/webhooks/${bHook.id}`, payload });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
      for (const secret of [bHook.id, bHook.signing_key, h.b.orgId]) expect(res.body).not.toContain(secret);
    }
    expect(await rowOf(bHook.id)).toEqual(before);
  });

  it('another organization\'s webhook: 404, not 403, for A\'s member', async () => {
    const res = await h.call(h.a.member.token, { method: 'PUT', url: `/webhooks/${bHook.id}`, payload: { is_enabled: false } });
    expect(res.statusCode, res.body).toBe(404);
  });

  it('B\'s id answers like an id that exists nowhere', async () => {
    const foreign = await h.call(h.a.admin.token, { method: 'PUT', url: `/webhooks/${bHook.id}`, payload: { is_enabled: false } });
    const missing = await h.call(h.a.admin.token, { method: 'PUT', url: '/webhooks/00000000-0000-4000-8000-000000000000', payload: { is_enabled: false } });
    expect([foreign.statusCode, foreign.json().code, foreign.json().message]).toEqual([missing.statusCode, missing.json().code, missing.json().message]);
  });

  it('cannot move a webhook to another organization or lab', async () => {
    const before = await rowOf(aHook.id);
    for (const payload of [{ organization_id: h.b.orgId }, { lab_id: h.b.legacyLab.id }, { lab_id: h.a.legacyLab.id }]) {
      const res = await h.call(h.a.admin.token, { method: 'PUT', url: `/webhooks/${aHook.id}`, payload });
      expect(res.statusCode, res.body).toBe(422);
    }
    expect(await rowOf(aHook.id)).toEqual(before);
  });

  it('B\'s admin can update B\'s webhook (control)', async () => {
    const res = await h.call(h.b.admin.token, { method: 'PUT', url: `/webhooks/${bHook.id}`, payload: { is_enabled: false } });
    expect(res.statusCode).toBe(200);
    expect(res.json().is_enabled).toBe(false);
  });
});
