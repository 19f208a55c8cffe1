// GET /inventory-items search and filters (docs/product.md §3, §12): another organization's lab, type and location ids
// give [] and a total of 0 (as lab_id always has), never its data; a member finds only the labs they belong to;
// a user of no lab finds nothing, whatever the filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocation } from '../../../src/locations/service.js';
import { createType } from '../../../src/types/service.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { addItem } from './_helpers.js';
import { listItems } from './_search.js';

let h: Harness;
const b: { typeId?: string; locationId?: string; itemIds: string[] } = { itemIds: [] };
let hiddenA: string;
let hiddenTypeA: string;

/** A's and B's items look alike: a name, a lot, an expiry and a minimum a query could find in either. */
beforeAll(async () => {
  h = await startHarness();
  for (const [org, lab] of [
    [h.a, h.a.migratedLab],
    [h.b, h.b.migratedLab],
  ] as const) {
    const type = await createType(h.deps, org.admin.actor, { labId: lab.id, name: 'Shared type name' });
    const box = await createLocation(h.deps.db, org.admin.actor, { labId: lab.id, parentId: lab.locationIds[0]!, name: 'Box' });
    const item = await addItem(h, org.admin.actor, { labId: lab.id, name: 'Twin reagent', typeId: type.id, casNumber: '50-00-0' }, [
      { quantity: '1', lotNumber: 'TWIN-1', expirationDate: '2026-01-01', locationId: box.id },
    ]);
    const res = await h.call(org.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${item.id}/minimum-quantity`,
      payload: { minimum_quantity: '5' },
    });
    expect(res.statusCode).toBe(200);
    if (org === h.b)
      Object.assign(b, { typeId: type.id, locationId: box.id, itemIds: [item.id, h.b.legacyLab.itemId, h.b.migratedLab.itemId] });
  }
  hiddenTypeA = h.a.otherLab.typeId;
  hiddenA = (
    await addItem(h, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Twin hidden', typeId: hiddenTypeA, expirationDate: '2026-01-01' })
  ).id;
  await h.call(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${hiddenA}/minimum-quantity`, payload: { minimum_quantity: '1' } });
});
afterAll(() => h?.close());

type Query = Record<string, string>;
const SEARCHES = (): Query[] => [
  { q: 'twin' },
  { q: 'TWIN-1' },
  { q: '50-00-0' },
  { q: 'reagent' },
  { expiring_before: '2030-01-01' },
  { below_minimum: 'true' },
  { sort: 'name' },
  { sort: '-expiration_date', expiring_before: '2027-01-01' },
];

describe('GET /inventory-items filters (security)', () => {
  it("another organization's type, location and lab ids give [] and a total of 0, alone or with any filter", async () => {
    for (const token of [h.a.admin.token, h.a.member.token]) {
      for (const ids of [{ type_id: b.typeId! }, { location_id: b.locationId! }, { lab_id: h.b.migratedLab.id }] as Query[]) {
        for (const extra of [{}, ...SEARCHES()]) {
          const r = await listItems(h, token, { ...ids, ...extra });
          expect(r.status, r.body).toBe(200);
          expect(r.items).toEqual([]);
          expect(r.total).toBe(0);
        }
      }
    }
  });

  it("no search or filter ever answers another organization's items", async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const query of SEARCHES()) {
        const r = await listItems(h, token, { ...query, per_page: '100' });
        expect(r.status, r.body).toBe(200);
        for (const id of b.itemIds) expect(r.body).not.toContain(id);
        expect(r.body).not.toContain(h.b.orgId);
        for (const item of r.items) expect(item.lab.organization.id).toBe(h.a.orgId);
      }
    }
  });

  it("a member finds only the labs they belong to: the admin's results include the other lab, the member's do not", async () => {
    for (const query of [
      { q: 'twin' },
      { expiring_before: '2030-01-01' },
      { below_minimum: 'true' },
      { type_id: hiddenTypeA },
    ] as Query[]) {
      const admin = await listItems(h, h.a.admin.token, query);
      expect(admin.ids, JSON.stringify(query)).toContain(hiddenA);
      const member = await listItems(h, h.a.member.token, query);
      expect(member.ids, JSON.stringify(query)).not.toContain(hiddenA);
      expect(member.body).not.toContain('Twin hidden');
      expect(member.total).toBe(member.ids.length);
    }
    const byLab = await listItems(h, h.a.member.token, { lab_id: h.a.otherLab.id, q: 'twin' });
    expect(byLab.items).toEqual([]);
    expect(byLab.total).toBe(0);
  });

  it('a user who belongs to no lab finds nothing, whatever the filters', async () => {
    for (const query of [...SEARCHES(), { type_id: h.a.legacyLab.typeId }, { location_id: h.a.migratedLab.locationIds[0]! }] as Query[]) {
      const r = await listItems(h, h.a.outsider.token, query);
      expect(r.items).toEqual([]);
      expect(r.total).toBe(0);
    }
  });

  it("org B's admin finds its own twin and never A's", async () => {
    const r = await listItems(h, h.b.admin.token, { q: 'twin' });
    expect(r.ids).toEqual([b.itemIds[0]]);
    expect(r.body).not.toContain(hiddenA);
  });
});
