import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

// Only organization admins rotate keys (members 403, no key in the answer); another organization's webhook is
// 404, never 403, and its key stays. Nothing changes after any refusal.

let h: Harness;
let aHook: { id: string; signing_key: string };
let bHook: { id: string; signing_key: string };
beforeAll(async () => {
  h = await startHarness();
  aHook = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/a' } })).json();
  bHook = (await h.call(h.b.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.b.orgId, url: 'https://hooks.example.org/b' } })).json();
});
afterAll(() => h?.close());

const snapshot = () => h.deps.db.selectFrom('webhooks').selectAll().orderBy('id').execute();
const rotate = (token: string, id: string) => h.call(token, { method: 'POST', url: `/webhooks/${id}/rotate-secret` });

describe('POST /webhooks/{id}/rotate-secret security', () => {
  it('members get 403 and no key; the key is unchanged', async () => {
    const before = await snapshot();
    for (const token of [h.a.member.token, h.a.outsider.token]) {
      const res = await rotate(token, aHook.id);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden' });
      expect(res.body).not.toContain('whsec_');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('another organization\'s webhook: 404 for A\'s admin and members; B\'s key unchanged and not returned', async () => {
    const before = await snapshot();
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      const res = await rotate(token, bHook.id);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
      expect(res.body).not.toContain('whsec_');
      for (const secret of [bHook.id, bHook.signing_key, h.b.orgId]) expect(res.body).not.toContain(secret);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('B\'s id answers exactly like an id that exists nowhere', async () => {
    const foreign = await rotate(h.a.admin.token, bHook.id);
    const missing = await rotate(h.a.admin.token, '00000000-0000-4000-8000-000000000000');
    expect([foreign.statusCode, foreign.json().code, foreign.json().message]).toEqual([missing.statusCode, missing.json().code, missing.json().message]);
  });

  it('control: each admin rotates their own, touching only that row', async () => {
    const bBefore = await h.deps.db.selectFrom('webhooks').selectAll().where('id', '=', bHook.id).executeTakeFirstOrThrow();
    const res = await rotate(h.a.admin.token, aHook.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().signing_key).not.toBe(aHook.signing_key);
    expect(await h.deps.db.selectFrom('webhooks').selectAll().where('id', '=', bHook.id).executeTakeFirstOrThrow()).toEqual(bBefore);
    expect((await rotate(h.b.admin.token, bHook.id)).statusCode).toBe(200);
  });
});
