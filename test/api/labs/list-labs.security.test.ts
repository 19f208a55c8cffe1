import { describe, expect, it } from 'vitest';
import { bAdminTokenInA, dbState } from '../../helpers/data.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const bIds = () => [h.b.orgId, h.b.legacyLab.id, h.b.migratedLab.id, h.b.otherLab.id];
const listLabs = (token: string, query = '') => h.call(token, { method: 'GET', url: `/labs${query}` });

function expectNoOrgB(body: string) {
  for (const id of bIds()) expect(body).not.toContain(id);
  expect(body).not.toContain('Org B');
}

describe('GET /labs (security)', () => {
  it("org A's admin sees only org A's labs, never org B's", async () => {
    const res = await listLabs(h.a.admin.token, '?per_page=100');
    expect(res.statusCode).toBe(200);
    const labs = res.json();
    expect(labs).toHaveLength(3);
    for (const lab of labs) expect(lab.organization.id).toBe(h.a.orgId);
    expectNoOrgB(res.body);
    expect(res.headers['x-total-count']).toBe('3');
  });

  it('organization_id of another org gives [] with a total of 0 (no data, no hint)', async () => {
    const res = await listLabs(h.a.admin.token, `?organization_id=${h.b.orgId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
    expectNoOrgB(res.body);
  });

  it('a member does not see the lab they do not belong to', async () => {
    const res = await listLabs(h.a.member.token, '?per_page=100');
    const ids = res.json().map((l: any) => l.id);
    expect(ids).not.toContain(h.a.otherLab.id);
    expect(ids).toEqual([h.a.legacyLab.id, h.a.migratedLab.id]);
    const filtered = await listLabs(h.a.member.token, `?organization_id=${h.a.orgId}`);
    expect(filtered.json().map((l: any) => l.id)).not.toContain(h.a.otherLab.id);
  });

  it('a user of the org who belongs to no lab sees no labs', async () => {
    const res = await listLabs(h.a.outsider.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
  });

  it("org B's tokens never see org A's labs", async () => {
    for (const token of [h.b.admin.token, h.b.member.token, h.b.outsider.token]) {
      const res = await listLabs(token, '?per_page=100');
      for (const lab of res.json()) expect(lab.organization.id).toBe(h.b.orgId);
      expect(res.body).not.toContain(h.a.legacyLab.id);
      expect(res.body).not.toContain(h.a.otherLab.id);
    }
    const res = await listLabs(h.b.admin.token, `?organization_id=${h.a.orgId}`);
    expect(res.json()).toEqual([]);
  });

  it('a token is scoped to its organization even when its user is an admin elsewhere', async () => {
    // B's admin also joins org A as a plain member of A's legacy lab.
    const inA = await bAdminTokenInA(h);

    const res = await listLabs(inA, '?per_page=100');
    expect(res.json().map((l: any) => l.id)).toEqual([h.a.legacyLab.id]);
    expectNoOrgB(res.body);
    expect((await listLabs(inA, `?organization_id=${h.b.orgId}`)).json()).toEqual([]);

    // Their org B token is unaffected: all of B, nothing of A.
    const inB = await listLabs(h.b.admin.token, '?per_page=100');
    expect(inB.json().map((l: any) => l.id)).toEqual([h.b.legacyLab.id, h.b.migratedLab.id, h.b.otherLab.id]);
  });

  it('listing changes nothing', async () => {
    const before = await dbState(h);
    await listLabs(h.a.admin.token, `?organization_id=${h.b.orgId}`);
    expect(await dbState(h)).toEqual(before);
  });
});
