import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, bAdminTokenInA, dbState } from './_helpers.js';

let otherItemA: string;
const h = useHarness({}, async (h) => {
  otherItemA = (
    await addItem(h, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Secret buffer A', typeId: h.a.otherLab.typeId, quantity: '9' })
  ).id;
  await addItem(h, h.b.admin.actor, { labId: h.b.otherLab.id, name: 'Secret buffer B', typeId: h.b.otherLab.typeId, quantity: '4' });
});

const list = (token: string, query = '') => h.call(token, { method: 'GET', url: `/inventory-items${query}` });

async function orgBMarkers(): Promise<string[]> {
  const bItems = await h.deps.db
    .selectFrom('inventory_items')
    .innerJoin('labs', 'labs.id', 'inventory_items.lab_id')
    .select(['inventory_items.id'])
    .where('labs.organization_id', '=', h.b.orgId)
    .execute();
  return [
    h.b.orgId,
    h.b.legacyLab.id,
    h.b.migratedLab.id,
    h.b.otherLab.id,
    ...h.b.migratedLab.instanceIds,
    ...bItems.map((i) => i.id),
    'Org B',
    'Ethanol B',
    'Anti-GFP B',
  ];
}

describe('GET /inventory-items (security)', () => {
  it("nothing of org B ever appears in any of org A's lists", async () => {
    const markers = await orgBMarkers();
    expect(markers.length).toBeGreaterThan(8);
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const query of [
        '',
        '?per_page=100',
        '?page=2',
        `?lab_id=${h.b.legacyLab.id}`,
        `?lab_id=${h.b.migratedLab.id}`,
        `?lab_id=${h.b.otherLab.id}`,
      ]) {
        const res = await list(token, query);
        expect(res.statusCode).toBe(200);
        for (const m of markers) expect(res.body).not.toContain(m);
        for (const item of res.json()) expect(item.lab.organization.id).toBe(h.a.orgId);
      }
    }
  });

  it('lab_id of another org gives [] and a total of 0', async () => {
    for (const labId of [h.b.legacyLab.id, h.b.migratedLab.id]) {
      const res = await list(h.a.admin.token, `?lab_id=${labId}`);
      expect(res.json()).toEqual([]);
      expect(res.headers['x-total-count']).toBe('0');
    }
  });

  it("an organization's id given as lab_id is no lab: [] and a total of 0, never the organization's count", async () => {
    // The organization's own page runs (migration 0044) share the scope column with the labs' runs.
    for (const [token, orgId] of [
      [h.a.member.token, h.a.orgId],
      [h.a.admin.token, h.a.orgId],
      [h.a.member.token, h.b.orgId],
    ] as const) {
      const res = await list(token, `?lab_id=${orgId}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual([]);
      expect(res.headers['x-total-count']).toBe('0');
    }
  });

  it('the admin sees the item of the lab the member does not belong to; the member does not', async () => {
    const admin = await list(h.a.admin.token, '?per_page=100');
    expect(admin.json().map((i: any) => i.id)).toContain(otherItemA);
    const member = await list(h.a.member.token, '?per_page=100');
    expect(member.json().map((i: any) => i.id)).not.toContain(otherItemA);
    expect(member.body).not.toContain('Secret buffer A');
    expect(member.headers['x-total-count']).toBe('2');
    const filtered = await list(h.a.member.token, `?lab_id=${h.a.otherLab.id}`);
    expect(filtered.json()).toEqual([]);
    expect(filtered.headers['x-total-count']).toBe('0');
  });

  it('a user who belongs to no lab sees no items, whatever the filter', async () => {
    for (const query of ['', `?lab_id=${h.a.legacyLab.id}`, `?lab_id=${h.a.otherLab.id}`]) {
      const res = await list(h.a.outsider.token, query);
      expect(res.json()).toEqual([]);
      expect(res.headers['x-total-count']).toBe('0');
    }
  });

  it("org B's tokens see none of org A's items", async () => {
    for (const token of [h.b.admin.token, h.b.member.token]) {
      const res = await list(token, '?per_page=100');
      for (const id of [h.a.legacyLab.itemId, h.a.migratedLab.itemId, otherItemA]) expect(res.body).not.toContain(id);
      for (const item of res.json()) expect(item.lab.organization.id).toBe(h.b.orgId);
    }
  });

  it("a token scoped to org A shows nothing of org B even when its user is org B's admin", async () => {
    const token = await bAdminTokenInA(h);
    const res = await list(token, '?per_page=100');
    expect(res.json().map((i: any) => i.id)).toEqual([h.a.legacyLab.itemId]);
    expect((await list(token, `?lab_id=${h.b.legacyLab.id}`)).json()).toEqual([]);
  });

  it('listing changes nothing', async () => {
    const before = await dbState(h);
    await list(h.a.admin.token, `?lab_id=${h.b.legacyLab.id}`);
    await list(h.a.outsider.token);
    expect(await dbState(h)).toEqual(before);
  });
});
