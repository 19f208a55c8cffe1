import { describe, expect, it } from 'vitest';
import { aHook, bHook, h, itAnswersLikeMissing, itHidesForeign, itRefusesMembers, useHarness } from './_security.js';

// A webhook carries its signing key: members get 403 for their own organization's webhooks; another
// organization's webhook is 404 for everyone of A (never 403, which would confirm that it exists).

useHarness({ b: 'lab', bUrl: 'https://hooks.example.org/b-secret-path' });

const get = (token: string, id: string) => h.call(token, { method: 'GET', url: `/webhooks/${id}` });

describe('GET /webhooks/{id} security', () => {
  itRefusesMembers('a member of the organization gets 403 for its webhook, without the key', { call: get });

  itHidesForeign("another organization's webhook: 404 for A's admin, nothing of it in the answer", {
    call: get,
    tokens: () => [h.a.admin.token],
    leaks: () => [bHook.url, h.b.legacyLab.id],
  });

  itHidesForeign("another organization's webhook: 404 (not 403) for A's member and outsider too", {
    call: get,
    tokens: () => [h.a.member.token, h.a.outsider.token],
  });

  itAnswersLikeMissing("B's id answers exactly like an id that exists nowhere", { call: get });

  it("B's admin reaches it (control: the id is real)", async () => {
    const res = await get(h.b.admin.token, bHook.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().signing_key).toBe(bHook.signing_key);
  });

  it("B's admin cannot read A's webhook either", async () => {
    const res = await get(h.b.admin.token, aHook.id);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain(aHook.signing_key);
  });
});
