import { describe, expect, it } from 'vitest';
import { aHook, bHook, h, itAnswersLikeMissing, itHidesForeign, itRefusesMembers, useHarness } from './_security.js';

// Only organization admins update webhooks; another organization's webhook is 404 (never 403) and unchanged;
// a webhook cannot be moved to another organization or lab.

useHarness({ b: 'organization' });

const rowOf = (id: string) => h.deps.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const put = (payload: Record<string, unknown>) => (token: string, id: string) =>
  h.call(token, { method: 'PUT', url: `/webhooks/${id}`, payload });

describe('PUT /webhooks/{id} security', () => {
  itRefusesMembers("a member gets 403 for the organization's webhook, which stays unchanged", {
    call: put({ is_enabled: false, url: 'https://attacker.example.net/' }),
    snapshot: () => rowOf(aHook.id),
  });

  itHidesForeign("another organization's webhook: 404 for A's admin, B's row unchanged, nothing of B returned", {
    call: [{ is_enabled: false }, { url: 'https://attacker.example.net/' }, { name: 'pwned', event_types: [] }, {}].map(put),
    tokens: () => [h.a.admin.token],
    snapshot: () => rowOf(bHook.id),
  });

  itHidesForeign("another organization's webhook: 404, not 403, for A's member", {
    call: put({ is_enabled: false }),
    tokens: () => [h.a.member.token],
    snapshot: () => rowOf(bHook.id),
  });

  itAnswersLikeMissing("B's id answers like an id that exists nowhere", { call: put({ is_enabled: false }) });

  it('cannot move a webhook to another organization or lab', async () => {
    const before = await rowOf(aHook.id);
    for (const payload of [{ organization_id: h.b.orgId }, { lab_id: h.b.legacyLab.id }, { lab_id: h.a.legacyLab.id }]) {
      const res = await h.call(h.a.admin.token, { method: 'PUT', url: `/webhooks/${aHook.id}`, payload });
      expect(res.statusCode, res.body).toBe(422);
    }
    expect(await rowOf(aHook.id)).toEqual(before);
  });

  it("B's admin can update B's webhook (control)", async () => {
    const res = await put({ is_enabled: false })(h.b.admin.token, bHook.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().is_enabled).toBe(false);
  });
});
