// SQLite answers a word alone from the full-text index in its rowid order, which must be the list's order (creation
// time, then id): src/inventory/search/rules.ts searchIdBase, kept by src/inventory/search/documents/repository.ts for
// new items, and set for existing ones by migration 0016. An item created with an earlier time than the last one (a
// clock set back), in the same second or an earlier one, is still found in its place; on PostgreSQL the same
// requests give the same answers (its index has no order to keep).
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isPostgres } from '../../../src/shared/db/database.js';
import { up as up0016 } from '../../../src/shared/db/migrations/0016_search_order.js';
import { up as up0025 } from '../../../src/shared/db/migrations/0025_substring_search.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { addItem } from './_helpers.js';
import { listItems } from './_search.js';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness();
  token = h.a.admin.token;
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(() => h?.close());

const at = (iso: string) => vi.setSystemTime(new Date(iso));

/** The search answers every "Clockwise" item, over pages of 2, in the plain list's order. */
async function expectListOrder(): Promise<void> {
  const plain = (await listItems(h, token, { lab_id: h.a.legacyLab.id, per_page: '100' })).items
    .filter((i) => i.name.startsWith('Clockwise'))
    .map((i) => i.id);
  const found: string[] = [];
  for (let page = 1; page <= Math.ceil(plain.length / 2) + 1; page++)
    found.push(...(await listItems(h, token, { q: 'clockwise', per_page: '2', page: String(page) })).ids);
  expect(found).toEqual(plain);
  // SQLite: the search rows' ids are in the order of (created_at, item_id).
  if (!isPostgres(h.deps.db)) {
    const rows = await h.deps.db.selectFrom('inventory_item_search').select(['id', 'created_at', 'item_id']).orderBy('id').execute();
    const keys = rows.map((r) => `${r.created_at} ${r.item_id}`);
    expect(keys).toEqual([...keys].sort());
  }
}

describe('the search index keeps the list order', () => {
  it('items created with a clock set back, in the same second and in earlier ones, are found in their place', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const add = (name: string) => addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name });
    at('2031-05-01T10:00:00.900Z');
    await add('Clockwise A');
    at('2031-05-01T10:00:00.100Z'); // the same second, earlier: the second's rows are renumbered
    await add('Clockwise B');
    at('2031-05-01T10:00:00.500Z');
    await add('Clockwise C');
    at('2031-05-01T09:59:59.999Z'); // the second before
    await add('Clockwise D');
    at('2031-05-01T10:00:01.000Z');
    await add('Clockwise E');
    vi.useRealTimers();
    await expectListOrder();
  });

  it.runIf(process.env.DATABASE_URL === undefined)('migration 0016 numbers existing rows in the list order (SQLite)', async () => {
    const db = h.deps.db;
    // Rows numbered against the list order, as a database before 0016 could hold them (the triggers keep FTS5 in step).
    await sql`update inventory_item_search set id = -id`.execute(db);
    await sql`update inventory_item_search set id = 1000000 + id`.execute(db);
    const before = await db.selectFrom('inventory_item_search').select(['id', 'created_at']).orderBy('id').execute();
    expect(before.map((r) => r.created_at)).not.toEqual(before.map((r) => r.created_at).sort());
    // A database before 0016 had no trigram table either (migration 0025 adds it, over the rows as 0016 left them).
    await sql`drop table inventory_item_search_trigram`.execute(db);
    await up0016(db);
    await up0025(db);
    await expectListOrder();
    expect((await listItems(h, token, { q: 'clockwise b' })).names).toEqual(['Clockwise B']);
  });
});
