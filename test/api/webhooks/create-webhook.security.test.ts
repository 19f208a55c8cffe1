import { describe, expect, it } from 'vitest';
import { type Call, countWebhooks, expectSameAnswer, GHOST_ID, h, itHidesForeign, itRefusesMembers, useHarness } from './_security.js';

// Only organization admins manage webhooks (docs/product.md §3), and only for their own organization and its labs:
// another organization's lab or organization id is 404, as if it did not exist.

useHarness();

const bIds = () => [h.b.orgId, h.b.legacyLab.id, h.b.migratedLab.id, h.b.otherLab.id, h.b.admin.id, h.b.member.id];

// The "id" of these cases is the organization or lab the webhook would be for.
const forOrganization =
  (url: string, extra: Record<string, unknown> = {}): Call =>
  (token, id) =>
    h.call(token, { method: 'POST', url: '/webhooks', payload: { organization_id: id, url, ...extra } });
const forLab =
  (url: string): Call =>
  (token, id) =>
    h.call(token, { method: 'POST', url: '/webhooks', payload: { lab_id: id, url } });

describe('POST /webhooks: roles', () => {
  itRefusesMembers('a member gets 403 forbidden and nothing is created', {
    call: [
      forOrganization('https://hooks.example.org/m'),
      (token) => forLab('https://hooks.example.org/m')(token, h.a.legacyLab.id), // a lab the member belongs to
    ],
    tokens: () => [h.a.member.token],
    id: () => h.a.orgId,
    snapshot: countWebhooks,
  });

  itRefusesMembers('a member of no lab gets 403 too', {
    call: forOrganization('https://hooks.example.org/o'),
    tokens: () => [h.a.outsider.token],
    id: () => h.a.orgId,
    snapshot: countWebhooks,
  });

  it('the admin of the same organization may (control)', async () => {
    const res = await forOrganization('https://hooks.example.org/a')(h.a.admin.token, h.a.orgId);
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe("POST /webhooks: another organization's ids", () => {
  for (const [label, labId] of [
    ['legacy lab', () => h.b.legacyLab.id],
    ['migrated lab', () => h.b.migratedLab.id],
    ['other lab', () => h.b.otherLab.id],
  ] as const) {
    itHidesForeign(`lab_id of B's ${label}: 404 for A's admin, nothing created, no B id in the answer`, {
      call: forLab('https://hooks.example.org/b'),
      tokens: () => [h.a.admin.token],
      id: labId,
      leaks: bIds,
      snapshot: countWebhooks,
    });
  }

  itHidesForeign("organization_id of B: 404 for A's admin, nothing created", {
    call: forOrganization('https://hooks.example.org/b', { event_types: ['order-request.*'] }),
    tokens: () => [h.a.admin.token],
    id: () => h.b.orgId,
    leaks: bIds,
    snapshot: countWebhooks,
  });

  it("B's ids answer the same as ids that exist nowhere (no existence oracle)", async () => {
    for (const [call, foreign] of [
      [forLab('https://hooks.example.org/b'), h.b.legacyLab.id],
      [forOrganization('https://hooks.example.org/b'), h.b.orgId],
    ] as const) {
      expectSameAnswer(await call(h.a.admin.token, foreign), await call(h.a.admin.token, GHOST_ID));
    }
  });

  it("a member trying B's lab is refused (403 or 404) and nothing is created", async () => {
    const before = await countWebhooks();
    const res = await forLab('https://hooks.example.org/b')(h.a.member.token, h.b.legacyLab.id);
    expect([403, 404]).toContain(res.statusCode);
    expect(await countWebhooks()).toBe(before);
  });

  it("B's admin creating for B lands in B only; A cannot see it", async () => {
    const res = await forLab('https://hooks.example.org/b-own')(h.b.admin.token, h.b.legacyLab.id);
    expect(res.statusCode, res.body).toBe(201);
    const listA = await h.call(h.a.admin.token, { method: 'GET', url: '/webhooks?per_page=100' });
    expect(listA.body).not.toContain(res.json().id);
    expect(listA.body).not.toContain(res.json().signing_key);
  });
});
