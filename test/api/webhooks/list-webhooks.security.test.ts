import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

// Listing webhooks shows signing keys, so it is for organization admins only, and only their own organization's.

let h: Harness;
let aHook: { id: string; signing_key: string };
let bHook: { id: string; signing_key: string };
beforeAll(async () => {
  h = await startHarness();
  aHook = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/a' } })).json();
  bHook = (await h.call(h.b.admin.token, { method: 'POST', url: '/webhooks', payload: { lab_id: h.b.legacyLab.id, url: 'https://hooks.example.org/b' } })).json();
});
afterAll(() => h?.close());

describe('GET /webhooks security', () => {
  it('a member gets 403 forbidden, with no signing key in the answer', async () => {
    for (const token of [h.a.member.token, h.a.outsider.token]) {
      const res = await h.call(token, { method: 'GET', url: '/webhooks' });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden', message: expect.any(String), request_id: expect.any(String) });
      expect(res.body).not.toContain(aHook.signing_key);
      expect(res.body).not.toMatch(/whsec_/);
    }
  });

  it('a member filtering by organization is still 403', async () => {
    const res = await h.call(h.a.member.token, { method: 'GET', url: `/webhooks?organization_id=${h.a.orgId}` });
    expect(res.statusCode).toBe(403);
  });

  it('each admin sees only their organization\'s webhooks', async () => {
    const a = await h.call(h.a.admin.token, { method: 'GET', url: '/webhooks' });
    expect(a.json().map((w: { id: string }) => w.id)).toEqual([aHook.id]);
    expect(a.body).not.toContain(bHook.signing_key);
    const b = await h.call(h.b.admin.token, { method: 'GET', url: '/webhooks' });
    expect(b.json().map((w: { id: string }) => w.id)).toEqual([bHook.id]);
    expect(b.body).not.toContain(aHook.signing_key);
  });

  it('organization_id of another organization: 200 and []', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks?organization_id=${h.b.orgId}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.body).not.toContain(bHook.id);
    expect(res.headers['x-total-count']).toBe('0');
  });

  it('organization_id that exists nowhere: the same 200 and []', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: '/webhooks?organization_id=00000000-0000-4000-8000-000000000000' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });
});
