// A search's X-Total-Count is exact up to 1,000 items and a lower bound beyond (docs/decisions/0014-bounded-search-counts.md):
// its Link then has no `last` but always a `next`, and paging still gives every match once, in the list's order.
// 1,030 items come from one CSV import (one creation time: their order is their ids'), 1,010 of them expiring, so
// that a common word and a dense expiry filter both pass the bound (the expiry page is then planned by the count).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_COUNT_CAP } from '../../../src/inventory/search/rules.js';
import type { Harness } from '../../helpers/harness.js';
import { startHarness } from '../../helpers/harness.js';
import { linkPages } from '../../helpers/shapes.js';
import { importCsv } from '../inventory-csv/_helpers.js';
import { type Listed, listItems } from './_search.js';

const N = 1030;
const EXPIRING = 1010;
let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness();
  token = h.a.admin.token;
  const rows = Array.from({ length: N }, (_, i) => `Bulkreagent ${i},1,${i < EXPIRING ? '2027-01-01' : ''}`);
  const res = await importCsv(h, token, h.a.legacyLab.id, `name,quantity,expiration_date\n${rows.join('\n')}\n`);
  expect(res.statusCode, res.body).toBe(200);
}, 120_000);
afterAll(() => h?.close());

/** The organization's items matching, in the list's order (creation time, then id), from the database itself. */
async function expected(where: { name?: string; expiringBefore?: string; labId?: string }): Promise<string[]> {
  let q = h.deps.db
    .selectFrom('inventory_items')
    .innerJoin('labs', 'labs.id', 'inventory_items.lab_id')
    .select('inventory_items.id')
    .where('labs.organization_id', '=', h.a.orgId);
  if (where.name) q = q.where('inventory_items.name', 'like', `${where.name}%`);
  if (where.expiringBefore) q = q.where('inventory_items.soonest_expiry', '<', where.expiringBefore);
  if (where.labId) q = q.where('inventory_items.lab_id', '=', where.labId);
  return (await q.orderBy('inventory_items.created_at').orderBy('inventory_items.id').execute()).map((r) => r.id);
}

/** Every page by the Link header's `next`, checking each page's headers against the bound. */
async function pages(query: Record<string, string>, perPage: number, total: number): Promise<string[]> {
  const ids: string[] = [];
  let page: Listed = await listItems(h, token, { ...query, per_page: String(perPage) });
  for (let n = 1; ; n++) {
    expect(page.status, page.body).toBe(200);
    const links = linkPages(page.link);
    const end = (n - 1) * perPage + perPage;
    const bound = Math.max(SEARCH_COUNT_CAP, end);
    if (total > bound) {
      // More than the count read: a lower bound, no last page, always a next one.
      expect(page.total).toBe(bound);
      expect(links.last).toBeUndefined();
      expect(links.next?.page).toBe(n + 1);
    } else {
      expect(page.total).toBe(total);
      expect(links.last?.page).toBe(Math.ceil(total / perPage));
    }
    for (const [k, v] of Object.entries(query)) expect(links.first?.url.searchParams.get(k)).toBe(v);
    ids.push(...page.ids);
    if (!links.next) return ids;
    page = await listItems(h, token, links.next.url.search.slice(1));
  }
}

describe('GET /inventory-items: bounded search counts', () => {
  it('a common word: a lower bound beyond 1,000, every match once in order over pages of 100 and of 25', async () => {
    const all = await expected({ name: 'Bulkreagent' });
    expect(all).toHaveLength(N);
    expect(await pages({ q: 'bulkreagent' }, 100, N)).toEqual(all);
    expect(await pages({ q: 'bulkr', lab_id: h.a.legacyLab.id }, 25, N)).toEqual(all);
  });

  it('a page past the cap counts past its own end: page 41 of 25 says at least 1,025, page 42 the exact 1,030', async () => {
    const p41 = await listItems(h, token, { q: 'bulkreagent', page: '41' });
    expect([p41.total, p41.items.length, linkPages(p41.link).last]).toEqual([1025, 25, undefined]);
    expect(linkPages(p41.link).prev?.page).toBe(40);
    const p42 = await listItems(h, token, { q: 'bulkreagent', page: '42' });
    expect([p42.total, p42.items.length, linkPages(p42.link).last?.page, linkPages(p42.link).next]).toEqual([N, 5, 42, undefined]);
  });

  it('a dense expiry filter (more than 1,000 expiring): the same items in the same order as counted exactly', async () => {
    for (const labId of [undefined, h.a.legacyLab.id]) {
      const all = await expected({ expiringBefore: '2028-01-01', labId });
      expect(all.length).toBeGreaterThan(EXPIRING - 1);
      const query: Record<string, string> = { expiring_before: '2028-01-01', ...(labId ? { lab_id: labId } : {}) };
      expect(await pages(query, 100, all.length)).toEqual(all);
    }
  });

  it('few matches stay exact; the plain list (and a sort alone) counts every item', async () => {
    const few = await listItems(h, token, { q: 'bulkreagent 1029' });
    expect([few.total, few.names]).toEqual([1, ['Bulkreagent 1029']]);
    const rest = await expected({ expiringBefore: '2027-01-01' });
    const sparse = await listItems(h, token, { expiring_before: '2027-01-01', per_page: '100' });
    expect([sparse.total, sparse.ids]).toEqual([rest.length, rest.slice(0, 100)]);
    const everything = await expected({});
    for (const query of [{}, { sort: 'name' }] as Record<string, string>[]) {
      const plain = await listItems(h, token, query);
      expect(plain.total).toBe(everything.length);
      expect(linkPages(plain.link).last?.page).toBe(Math.ceil(everything.length / 25));
    }
  });
});
