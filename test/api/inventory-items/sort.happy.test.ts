// GET /inventory-items?sort=… (docs/product.md §12): name, expiration_date, updated_at, "-" for descending; ties by
// creation time then id in the same direction; pages of any size give the whole sorted list, nothing twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { addItem } from './_helpers.js';
import { allPages, listItems } from './_search.js';

let h: Harness;
let token: string;
let labId: string;
let migratedIds: string[] = [];
const byName = new Map<string, string>();

// In creation order, with their expiry (null: none).
const ITEMS: [string, string | null][] = [
  ['beta', '2027-03-01'],
  ['Alpha', null],
  ['ápple', '2026-12-01'],
  ['alpha', '2027-03-01'],
  ['Zulu', null],
  ['zeta', '2026-01-15'],
  ['Beta', '2028-01-01'],
];

beforeAll(async () => {
  h = await startHarness();
  token = h.a.admin.token;
  labId = (await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Sorting lab' })).id;
  for (const [name, expirationDate] of ITEMS)
    byName.set(name, (await addItem(h, h.a.admin.actor, { labId, name, expirationDate, quantity: '1' })).id);
});
afterAll(() => h?.close());

const names = (ids: string[]) => ids.map((id) => [...byName].find(([, v]) => v === id)?.[0] ?? id);

async function sorted(sort: string, extra: Record<string, string> = {}) {
  const r = await listItems(h, token, { lab_id: labId, sort, per_page: '100', ...extra });
  expect(r.status, r.body).toBe(200);
  return r.ids;
}

describe('sort', () => {
  it('name: case and accents folded, ties by creation; -name is the exact reverse', async () => {
    const asc = ['Alpha', 'alpha', 'ápple', 'beta', 'Beta', 'zeta', 'Zulu'];
    expect(names(await sorted('name'))).toEqual(asc);
    expect(names(await sorted('-name'))).toEqual([...asc].reverse());
  });

  it('expiration_date: soonest first, items without one last; -expiration_date the reverse', async () => {
    const asc = ['zeta', 'ápple', 'beta', 'alpha', 'Beta', 'Alpha', 'Zulu'];
    expect(names(await sorted('expiration_date'))).toEqual(asc);
    expect(names(await sorted('-expiration_date'))).toEqual([...asc].reverse());
  });

  it('updated_at: the items changed last come last', async () => {
    for (const name of ['zeta', 'Alpha']) {
      const res = await h.call(token, {
        method: 'PATCH',
        url: `/inventory-items/${byName.get(name)}`,
        payload: { url: `https://x.test/${name}` },
      });
      expect(res.statusCode).toBe(200);
    }
    const asc = ['beta', 'ápple', 'alpha', 'Zulu', 'Beta', 'zeta', 'Alpha'];
    expect(names(await sorted('updated_at'))).toEqual(asc);
    expect(names(await sorted('-updated_at'))).toEqual([...asc].reverse());
  });

  it('a migrated item sorts by its soonest active instance', async () => {
    const m = h.a.migratedLab.id;
    const later = await addItem(h, h.a.admin.actor, { labId: m, name: 'Later' }, [{ quantity: '1', expirationDate: '2030-01-01' }]);
    const sooner = await addItem(h, h.a.admin.actor, { labId: m, name: 'Sooner' }, [
      { quantity: '1', expirationDate: '2031-01-01' },
      { quantity: '1', expirationDate: '2029-06-01' },
    ]);
    migratedIds = [later.id, sooner.id];
    const r = await listItems(h, token, { lab_id: m, sort: 'expiration_date', expiring_before: '2032-01-01' });
    // The fixture's item expires 2027-06-30.
    expect(r.ids).toEqual([h.a.migratedLab.itemId, sooner.id, later.id]);
    const archive = await h.call(token, {
      method: 'POST',
      url: `/inventory-items/${sooner.id}/instances/${sooner.instances[1]!.id}/archive`,
    });
    expect(archive.statusCode).toBe(200);
    expect((await listItems(h, token, { lab_id: m, sort: 'expiration_date', expiring_before: '2032-01-01' })).ids).toEqual([
      h.a.migratedLab.itemId,
      later.id,
      sooner.id,
    ]);
  });

  it.each(['name', '-name', 'expiration_date', '-expiration_date', 'updated_at', '-updated_at'])(
    'sort=%s: every page size gives the same list, no item twice, none missing',
    async (sort) => {
      const whole = await sorted(sort);
      expect(whole).toHaveLength(ITEMS.length);
      for (const perPage of [1, 2, 3, 5]) expect(await allPages(h, token, { lab_id: labId, sort }, perPage)).toEqual(whole);
    },
  );

  it('across every visible lab too, and with a filter', async () => {
    const all = await listItems(h, token, { sort: 'name', per_page: '100' });
    const keys = all.items.map((i) => i.name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase());
    expect(keys).toEqual([...keys].sort());
    for (const sort of ['name', '-expiration_date']) {
      const whole = (await listItems(h, token, { sort, per_page: '100' })).ids;
      expect(await allPages(h, token, { sort }, 4)).toEqual(whole);
      const filtered = (await listItems(h, token, { sort, expiring_before: '2031-01-01', per_page: '100' })).ids;
      expect(await allPages(h, token, { sort, expiring_before: '2031-01-01' }, 2)).toEqual(filtered);
      expect(filtered).toEqual(expect.arrayContaining(migratedIds.slice(0, 1)));
    }
    const member = await listItems(h, h.a.member.token, { sort: 'name', per_page: '100' });
    expect(member.ids).not.toContain(byName.get('zeta'));
  });
});
