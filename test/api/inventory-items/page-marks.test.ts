import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newItemRow } from '../../../src/inventory/item-row.js';
import { isPostgres } from '../../../src/shared/db/database.js';
import { PAGE_MARK_RUN } from '../../../src/shared/db/migrations/0044_item_page_marks.js';
import { newId } from '../../../src/shared/ids.js';
import { addItem } from '../../helpers/data.js';
import { linkPages } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

// A plain list reads its page from the page's run (migration 0044, src/inventory/search/page-marks-repository.ts):
// the pages must be exactly those of ORDER BY created_at, id LIMIT OFFSET, whatever inserts, deletes and renames
// happened, on both databases. The runs' counts are checked against the items themselves, and every page of the
// API against the same slice of the items taken by the database.

const h = useHarness();

const db = () => h.deps.db;

/** Items written straight into the table, as bulk loads and older versions do (the triggers keep the runs). */
async function insertRows(
  labId: string,
  keys: { createdAt: string; id?: string }[],
  userId = h.a.admin.id,
  perStatement = 100,
): Promise<string[]> {
  const rows = keys.map((k, i) =>
    newItemRow({ labId, name: `Bulk ${k.createdAt} ${i}`, quantity: '1' }, false, {
      id: k.id ?? newId(),
      userId,
      now: k.createdAt,
    }),
  );
  for (let i = 0; i < rows.length; i += perStatement)
    await db()
      .insertInto('inventory_items')
      .values(rows.slice(i, i + perStatement))
      .execute();
  return rows.map((r) => r.id);
}

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();

/** A scope: a lab, or an organization (the runs of its admin's list without lab_id). */
type Scope = { labId: string } | { orgId: string };
const scopeId = (scope: Scope) => ('labId' in scope ? scope.labId : scope.orgId);
const inScope = (scope: Scope) =>
  'labId' in scope ? sql`lab_id = ${scope.labId}` : sql`lab_id in (select id from labs where organization_id = ${scope.orgId})`;

/** The scope's ids as the database orders them (what OFFSET paging returns). */
const orderedIds = async (scope: Scope) =>
  (await sql<{ id: string }>`select id from inventory_items where ${inScope(scope)} order by created_at, id`.execute(db())).rows.map(
    (r) => r.id,
  );

const runsOf = (scope: Scope) =>
  db()
    .selectFrom('inventory_page_marks')
    .selectAll()
    .where('scope_id', '=', scopeId(scope))
    .orderBy('created_at')
    .orderBy('item_id')
    .execute();

/** Every run's count is the number of the scope's items from its key to the next run's, none is empty, none too full. */
async function expectRunsExact(scope: Scope): Promise<void> {
  const runs = await runsOf(scope);
  const total = (await orderedIds(scope)).length;
  if (total === 0) {
    expect(runs).toEqual([]);
    return;
  }
  const counted: number[] = [];
  for (const [i, run] of runs.entries()) {
    const next = runs[i + 1];
    const upper = next ? sql`and (created_at, id) < (${next.created_at}, ${next.item_id})` : sql``;
    const { rows } = await sql<{ n: string | number }>`select count(*) as n from inventory_items
      where ${inScope(scope)} and (created_at, id) >= (${run.created_at}, ${run.item_id}) ${upper}`.execute(db());
    counted.push(Number(rows[0]!.n));
  }
  expect(runs.map((r) => Number(r.items))).toEqual(counted);
  expect(counted.reduce((a, b) => a + b, 0)).toBe(total); // so no item sorts before the first run
  for (const n of counted) {
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThanOrEqual(PAGE_MARK_RUN + 1);
  }
}

/** Both scopes an item of org A's lab is in. */
async function expectAllRunsExact(labId: string): Promise<void> {
  await expectRunsExact({ labId });
  await expectRunsExact({ orgId: h.a.orgId });
}

/**
 * Every page of the scope at these page sizes (and one past the end), as the API serves them to org A's admin (a
 * lab's list, or the organization's without lab_id), against the database's order.
 */
async function expectPagesRight(scope: Scope, perPages = [100, 25]): Promise<void> {
  const all = await orderedIds(scope);
  const url = (perPage: number, page: number) =>
    `/inventory-items?${'labId' in scope ? `lab_id=${scope.labId}&` : ''}per_page=${perPage}&page=${page}`;
  for (const perPage of perPages) {
    const last = Math.max(1, Math.ceil(all.length / perPage));
    for (let page = 1; page <= last + 1; page += 1) {
      const res = await h.call(h.a.admin.token, { method: 'GET', url: url(perPage, page) });
      expect(res.statusCode).toBe(200);
      const ids = res.json().map((i: { id: string }) => i.id);
      expect(ids, url(perPage, page)).toEqual(all.slice((page - 1) * perPage, page * perPage));
      expect(res.headers['x-total-count']).toBe(String(all.length));
      expect(linkPages(res.headers.link).last?.page).toBe(last);
    }
  }
  // One item a page around each run's edges: the first items of a run and the last of the one before.
  for (const page of [1, 2, PAGE_MARK_RUN - 1, PAGE_MARK_RUN, PAGE_MARK_RUN + 1, PAGE_MARK_RUN + 2, 2 * PAGE_MARK_RUN + 1, all.length]) {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: url(1, page) });
    expect(res.json().map((i: { id: string }) => i.id)).toEqual(all.slice(page - 1, page));
  }
}

describe("a lab's pages stay those of the list's order", () => {
  it('after items are created one by one and in bulk, in order: full runs', async () => {
    const labId = h.a.legacyLab.id;
    for (let i = 0; i < 5; i += 1) await addItem(h, h.a.admin.actor, { labId, name: `One by one ${i}`, quantity: '1' });
    await insertRows(
      labId,
      Array.from({ length: 2 * PAGE_MARK_RUN + 30 }, (_, i) => ({ createdAt: at(10_000_000_000 + i) })),
    );
    for (let i = 0; i < 3; i += 1) await addItem(h, h.a.admin.actor, { labId, name: `Later ${i}`, quantity: '1' });
    await expectAllRunsExact(labId);
    // Written in order, runs fill up: the bulk rows sort before the items created now, so they start at the front.
    const runs = await db().selectFrom('inventory_page_marks').select('items').where('scope_id', '=', labId).execute();
    const n = (await orderedIds({ labId })).length;
    expect(runs.length).toBeLessThanOrEqual(Math.ceil(n / PAGE_MARK_RUN) + 1);
    await expectPagesRight({ labId });
    await expectPagesRight({ orgId: h.a.orgId }, [100]);
  });

  it('after deletes through the API: the first item, the first of a run, one in the middle, the last', async () => {
    const labId = h.a.legacyLab.id;
    const before = await orderedIds({ labId });
    const runKeys = (await db().selectFrom('inventory_page_marks').select('item_id').where('scope_id', '=', labId).execute()).map(
      (r) => r.item_id,
    );
    const gone = [before[0]!, runKeys.find((id) => id !== before[0])!, before[300]!, before.at(-1)!];
    for (const id of gone) {
      const res = await h.call(h.a.admin.token, { method: 'DELETE', url: `/inventory-items/${id}` });
      expect(res.statusCode).toBe(204);
    }
    expect(await orderedIds({ labId })).toEqual(before.filter((id) => !gone.includes(id)));
    await expectAllRunsExact(labId);
    await expectPagesRight({ labId });
    await expectPagesRight({ orgId: h.a.orgId }, [100]);
  });

  it('after items that sort before, between and inside runs (a clock set back, one created_at shared)', async () => {
    const labId = h.a.legacyLab.id;
    const all = await orderedIds({ labId });
    const keyOf = async (id: string) =>
      (await db().selectFrom('inventory_items').select(['created_at', 'id']).where('id', '=', id).executeTakeFirstOrThrow()).created_at;
    const middle = await keyOf(all[150]!);
    await insertRows(labId, [
      { createdAt: at(0) }, // before every item: a run of its own at the front
      { createdAt: middle, id: '00000000-0000-7000-8000-000000000000' }, // the same created_at, a smaller id
      { createdAt: middle, id: 'ffffffff-ffff-7fff-bfff-ffffffffffff' }, // and a larger one
      ...Array.from({ length: 40 }, (_, i) => ({ createdAt: at(10_000_000_000 + 100 + i) })), // inside the second run
    ]);
    await expectAllRunsExact(labId);
    await expectPagesRight({ labId });
    await expectPagesRight({ orgId: h.a.orgId }, [100]);
  });

  it('after renames (the default order does not move; sort=name pages by OFFSET as before)', async () => {
    const labId = h.a.legacyLab.id;
    const all = await orderedIds({ labId });
    for (const [i, id] of [all[3]!, all[210]!, all.at(-2)!].entries()) {
      const res = await h.call(h.a.admin.token, { method: 'PATCH', url: `/inventory-items/${id}`, payload: { name: `Aaa renamed ${i}` } });
      expect(res.statusCode).toBe(200);
    }
    expect(await orderedIds({ labId })).toEqual(all);
    await expectAllRunsExact(labId);
    await expectPagesRight({ labId }, [25]);
    const byName = (
      await db()
        .selectFrom('inventory_items')
        .select('id')
        .where('lab_id', '=', labId)
        .orderBy('name_key')
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    ).map((r) => r.id);
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items?lab_id=${labId}&sort=name&per_page=25&page=2` });
    expect(res.json().map((i: { id: string }) => i.id)).toEqual(byName.slice(25, 50));
  });

  it('through random inserts and deletes anywhere in the order, the runs stay exact', async () => {
    const labId = h.a.migratedLab.id;
    let seed = 27;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    await insertRows(
      labId,
      Array.from({ length: PAGE_MARK_RUN + 120 }, (_, i) => ({ createdAt: at(5_000 + i * 10) })),
    );
    for (let round = 0; round < 8; round += 1) {
      // Keys from a few created_at values, many of them shared: items land before, inside and after every run.
      const keys = Array.from({ length: 30 }, () => ({ createdAt: at(Math.floor(random() * 1700) * 10) }));
      await insertRows(labId, keys);
      const ids = await orderedIds({ labId });
      // The fixture's item has instances and history: only the rows written here go.
      const deletable = ids.filter((id) => id !== h.a.migratedLab.itemId && random() < 0.08);
      for (let i = 0; i < deletable.length; i += 50)
        await db()
          .deleteFrom('inventory_items')
          .where('id', 'in', deletable.slice(i, i + 50))
          .execute();
      await expectAllRunsExact(labId);
    }
    await expectPagesRight({ labId }, [25, 100]);
    await expectPagesRight({ orgId: h.a.orgId }, [100]);
  });

  it('after bulk loads after every item (an import): the last run fills, then a run every PAGE_MARK_RUN rows', async () => {
    const labId = h.a.otherLab.id;
    const later = Date.UTC(2031, 0, 1);
    // 100 rows, then 2,000 in one statement on PostgreSQL (the last run filled and two new runs at once; SQLite
    // takes fewer parameters a statement, and places rows one by one anyway), then statements of 100.
    await insertRows(
      labId,
      Array.from({ length: 100 }, (_, i) => ({ createdAt: new Date(later + i).toISOString() })),
    );
    await insertRows(
      labId,
      Array.from({ length: 2 * PAGE_MARK_RUN }, (_, i) => ({ createdAt: new Date(later + 1_000 + i).toISOString() })),
      h.a.admin.id,
      isPostgres(db()) ? 2 * PAGE_MARK_RUN : 500,
    );
    await insertRows(
      labId,
      Array.from({ length: 250 }, (_, i) => ({ createdAt: new Date(later + 10_000 + i).toISOString() })),
    );
    await expectAllRunsExact(labId);
    // Appended in order, every run but the last is full.
    const runs = (await runsOf({ labId })).map((r) => Number(r.items));
    expect(runs.slice(0, -1).every((n) => n === PAGE_MARK_RUN)).toBe(true);
    await expectPagesRight({ labId }, [100]);
    await expectPagesRight({ orgId: h.a.orgId }, [100]);
  });

  it('when every item of a lab goes, so do its runs; the next item starts one again', async () => {
    const labId = h.b.legacyLab.id;
    const ids = await insertRows(
      labId,
      Array.from({ length: 5 }, (_, i) => ({ createdAt: at(i) })),
      h.b.admin.id,
    );
    const fixtureIds = (await orderedIds({ labId })).filter((id) => !ids.includes(id));
    await db().deleteFrom('inventory_items').where('id', 'in', ids).execute();
    await expectRunsExact({ labId });
    await expectRunsExact({ orgId: h.b.orgId });
    if (fixtureIds.length === 0) {
      const res = await h.call(h.b.admin.token, { method: 'GET', url: `/inventory-items?lab_id=${labId}` });
      expect(res.json()).toEqual([]);
      expect(res.headers['x-total-count']).toBe('0');
    }
    await addItem(h, h.b.admin.actor, { labId, name: 'Again', quantity: '1' });
    await expectRunsExact({ labId });
    await expectRunsExact({ orgId: h.b.orgId });
  });
});
