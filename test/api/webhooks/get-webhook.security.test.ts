import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

// A webhook carries its signing key: members get 403 for their own organization's webhooks; another
// organization's webhook is 404 for everyone of A (never 403, which would confirm that it exists).

let h: Harness;
let aHook: { id: string; signing_key: string };
let bHook: { id: string; signing_key: string; url: string };
beforeAll(async () => {
  h = await startHarness();
  aHook = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/a' } })).json();
  bHook = (await h.call(h.b.admin.token, { method: 'POST', url: '/webhooks', payload: { lab_id: h.b.legacyLab.id, url: 'https://hooks.example.org/b-secret-path' } })).json();
});
afterAll(() => h?.close());

describe('GET /webhooks/{id} security', () => {
  it('a member of the organization gets 403 for its webhook, without the key', async () => {
    for (const token of [h.a.member.token, h.a.outsider.token]) {
      const res = await h.call(token, { method: 'GET', url: `/webhooks/${aHook.id}` });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden' });
      expect(res.body).not.toContain(aHook.signing_key);
    }
  });

  it('another organization\'s webhook: 404 for A\'s admin, nothing of it in the answer', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${bHook.id}` });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
    for (const secret of [bHook.id, bHook.signing_key, bHook.url, h.b.legacyLab.id, h.b.orgId]) expect(res.body).not.toContain(secret);
  });

  it('another organization\'s webhook: 404 (not 403) for A\'s member and outsider too', async () => {
    for (const token of [h.a.member.token, h.a.outsider.token]) {
      const res = await h.call(token, { method: 'GET', url: `/webhooks/${bHook.id}` });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.body).not.toContain(bHook.signing_key);
    }
  });

  it('B\'s id answers exactly like an id that exists nowhere', async () => {
    const foreign = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${bHook.id}` });
    const missing = await h.call(h.a.admin.token, { method: 'GET', url: '/webhooks/00000000-0000-4000-8000-000000000000' });
    expect(foreign.statusCode).toBe(missing.statusCode);
    expect(foreign.json().message).toBe(missing.json().message);
    expect(foreign.json().code).toBe(missing.json().code);
  });

  it('B\'s admin reaches it (control: the id is real)', async () => {
    const res = await h.call(h.b.admin.token, { method: 'GET', url: `/webhooks/${bHook.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().signing_key).toBe(bHook.signing_key);
  });

  it('B\'s admin cannot read A\'s webhook either', async () => {
    const res = await h.call(h.b.admin.token, { method: 'GET', url: `/webhooks/${aHook.id}` });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain(aHook.signing_key);
  });
});
