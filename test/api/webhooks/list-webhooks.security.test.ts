import { describe, expect, it } from 'vitest';
import { aHook, bHook, GHOST_ID, h, itRefusesMembers, useHarness } from './_security.js';

// Listing webhooks shows signing keys, so it is for organization admins only, and only their own organization's.

useHarness({ b: 'lab' });

describe('GET /webhooks security', () => {
  // The collection has no id: the request ignores the one it is given (aHook's).
  itRefusesMembers('a member gets 403 forbidden, with no signing key in the answer', {
    call: (token) => h.call(token, { method: 'GET', url: '/webhooks' }),
  });

  it('a member filtering by organization is still 403', async () => {
    const res = await h.call(h.a.member.token, { method: 'GET', url: `/webhooks?organization_id=${h.a.orgId}` });
    expect(res.statusCode).toBe(403);
  });

  it("each admin sees only their organization's webhooks", async () => {
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
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks?organization_id=${GHOST_ID}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });
});
