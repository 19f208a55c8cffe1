import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, expectedLegacyItem, expectedMigratedItem, expectItemShape, linkPages } from './_helpers.js';

const h = useHarness();

const list = (token: string, query = '') => h.call(token, { method: 'GET', url: `/inventory-items${query}` });

describe('GET /inventory-items (happy)', () => {
  it("lists the org's items to its admin, every contract field present and nothing else but app_url", async () => {
    const res = await list(h.a.admin.token);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    const items = res.json();
    expect(items).toHaveLength(2);
    for (const item of items) expectItemShape(item);
    expect(items).toEqual([expectedLegacyItem(h.a, 'A', h.config.appUrl), expectedMigratedItem(h.a, 'A', h.config.appUrl)]);
  });

  it('legacy item: quantity and price are strings, lot/expiry/location on the parent, instances []', async () => {
    const legacy = (await list(h.a.admin.token)).json().find((i: any) => i.id === h.a.legacyLab.itemId);
    expect(legacy.quantity).toBe('3');
    expect(legacy.price).toBe('42.50');
    expect(legacy.lab.uses_instances).toBe(false);
    expect(legacy.lot_number).toBe('LOT-1');
    expect(legacy.expiration_date).toBe('2027-01-31');
    expect(legacy.location).toEqual({ name: 'Cabinet 1' });
    expect(legacy.sublocation).toEqual({ name: 'Shelf A' });
    expect(legacy.instances).toEqual([]);
  });

  it('migrated item: parent legacy fields null, quantity the exact sum "0.3", instances with location paths', async () => {
    const migrated = (await list(h.a.admin.token)).json().find((i: any) => i.id === h.a.migratedLab.itemId);
    expect(migrated.lab.uses_instances).toBe(true);
    expect(migrated.quantity).toBe('0.3');
    expect(migrated.lot_number).toBeNull();
    expect(migrated.expiration_date).toBeNull();
    expect(migrated.location).toBeNull();
    expect(migrated.sublocation).toBeNull();
    expect(migrated.instances.map((i: any) => i.quantity)).toEqual(['0.1', '0.2']);
    expect(migrated.instances[0].location).toEqual({ name: 'Shelf 2', pathNames: ['Room 101', 'Freezer A', 'Shelf 2'] });
  });

  it('a member sees the items of the labs they belong to', async () => {
    const res = await list(h.a.member.token);
    expect(res.json().map((i: any) => i.id)).toEqual([h.a.legacyLab.itemId, h.a.migratedLab.itemId]);
    expect(res.headers['x-total-count']).toBe('2');
  });

  it('filters by lab_id', async () => {
    const legacy = await list(h.a.member.token, `?lab_id=${h.a.legacyLab.id}`);
    expect(legacy.statusCode).toBe(200);
    expect(legacy.json().map((i: any) => i.id)).toEqual([h.a.legacyLab.itemId]);
    expect(legacy.headers['x-total-count']).toBe('1');
    const migrated = await list(h.a.member.token, `?lab_id=${h.a.migratedLab.id}`);
    expect(migrated.json().map((i: any) => i.id)).toEqual([h.a.migratedLab.itemId]);
    const empty = await list(h.a.admin.token, `?lab_id=${h.a.otherLab.id}`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);
    expect(empty.headers['x-total-count']).toBe('0');
  });

  it('sends X-Total-Count and Link (first/last) on a single page', async () => {
    const res = await list(h.a.admin.token);
    expect(res.headers['x-total-count']).toBe('2');
    const links = linkPages(res.headers.link);
    expect(links.first?.page).toBe(1);
    expect(links.last?.page).toBe(1);
    expect(links.next).toBeUndefined();
    expect(links.first?.url.pathname).toBe('/inventory-items');
  });

  it('accepts the Bearer header and ignores unknown query parameters', async () => {
    const res = await h.call(null, {
      method: 'GET',
      url: '/inventory-items?sort=name',
      headers: { authorization: `Bearer ${h.a.member.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(2);
  });

  describe('pagination over 32 items', () => {
    let dbOrder: string[] = [];
    beforeAll(async () => {
      for (let i = 0; i < 30; i += 1) {
        await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: `Tube ${i}`, quantity: String(i), price: `${i}.99` });
      }
      dbOrder = (
        await h.deps.db
          .selectFrom('inventory_items')
          .innerJoin('labs', 'labs.id', 'inventory_items.lab_id')
          .select(['inventory_items.id'])
          .where('labs.organization_id', '=', h.a.orgId)
          .orderBy('inventory_items.created_at')
          .orderBy('inventory_items.id')
          .execute()
      ).map((r) => r.id);
      expect(dbOrder).toHaveLength(32);
    });

    it('25 per page by default, the rest on page 2, [] past the end', async () => {
      const p1 = await list(h.a.admin.token);
      expect(p1.json()).toHaveLength(25);
      expect(p1.headers['x-total-count']).toBe('32');
      const l1 = linkPages(p1.headers.link);
      expect(l1.first?.page).toBe(1);
      expect(l1.next?.page).toBe(2);
      expect(l1.last?.page).toBe(2);
      expect(l1.prev).toBeUndefined();

      const p2 = await list(h.a.admin.token, '?page=2');
      expect(p2.json()).toHaveLength(7);
      const l2 = linkPages(p2.headers.link);
      expect(l2.prev?.page).toBe(1);
      expect(l2.next).toBeUndefined();
      expect(l2.last?.page).toBe(2);

      const p3 = await list(h.a.admin.token, '?page=3');
      expect(p3.statusCode).toBe(200);
      expect(p3.json()).toEqual([]);
      expect(p3.headers['x-total-count']).toBe('32');
      expect([...p1.json(), ...p2.json()].map((i: any) => i.id)).toEqual(dbOrder);
    });

    it('per_page gives pages of that size in the same stable order (creation time, then id)', async () => {
      const all = await list(h.a.admin.token, '?per_page=100');
      expect(all.json().map((i: any) => i.id)).toEqual(dbOrder);
      const pages: string[] = [];
      for (let page = 1; page <= 4; page += 1) {
        const res = await list(h.a.admin.token, `?per_page=10&page=${page}`);
        expect(res.json()).toHaveLength(page < 4 ? 10 : 2);
        expect(linkPages(res.headers.link).last?.page).toBe(4);
        pages.push(...res.json().map((i: any) => i.id));
      }
      expect(pages).toEqual(dbOrder);
      expect((await list(h.a.admin.token, '?per_page=100')).json()).toEqual(all.json());
    });

    it('new items are fully shaped, with quantities and prices as strings', async () => {
      const items = (await list(h.a.admin.token, '?per_page=100')).json();
      for (const item of items) expectItemShape(item);
      const tube = items.find((i: any) => i.name === 'Tube 7');
      expect(tube.quantity).toBe('7');
      expect(tube.price).toBe('7.99');
      expect(tube.instances).toEqual([]);
    });

    it('lab_id filter paginates too and Link keeps lab_id and per_page', async () => {
      const res = await list(h.a.admin.token, `?lab_id=${h.a.legacyLab.id}&per_page=20`);
      expect(res.json()).toHaveLength(20);
      expect(res.headers['x-total-count']).toBe('31');
      const next = linkPages(res.headers.link).next!;
      expect(next.page).toBe(2);
      expect(next.url.searchParams.get('lab_id')).toBe(h.a.legacyLab.id);
      expect(next.url.searchParams.get('per_page')).toBe('20');
      const follow = await list(h.a.admin.token, `${next.url.pathname}${next.url.search}`.replace('/inventory-items', ''));
      expect(follow.json()).toHaveLength(11);
      for (const item of [...res.json(), ...follow.json()]) expect(item.lab.id).toBe(h.a.legacyLab.id);
    });

    it('a member sees the same 32 items (both labs are theirs)', async () => {
      const res = await list(h.a.member.token, '?per_page=100');
      expect(res.json().map((i: any) => i.id)).toEqual(dbOrder);
    });
  });
});
