import { type Expression, expressionBuilder, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { hazardClassCondition } from '../../hazards/repository.js';
import { labIsVisible, visibleLabIds } from '../../labs/repository.js';
import type { Actor } from '../../shared/actor.js';
import { type Executor, isPostgres } from '../../shared/db/database.js';
import type { Database } from '../../shared/db/schema.js';
import type { Page } from '../../shared/pagination.js';
import type { QueryWord } from '../../shared/search-text.js';
import { fromRunKey, type PageStart } from './page-marks-repository.js';
import { countBoundOf, ftsMatch, type ItemFilter, type ItemOrder, likePatterns, splitWords, trigramMatch, tsQuery } from './rules.js';
import { itemsStoredUnder } from './stored-under-repository.js';

// GET /inventory-items' queries (docs/product.md §12): a page of the visible items, filtered and sorted, and its count
// (bounded for a search, docs/decisions/0014-bounded-search-counts.md). The index they search is written by
// documents/repository.ts in the transaction of every change to an item. Each filter and sort has its own index
// (migrations 0010, 0016); test/perf/search-plans.test.ts shows both databases using them.

/** The two statements of a page of items: its count and its rows (the query plan tests compile them, test/perf/). */
export function itemPageQueries(
  ex: Executor,
  actor: Actor,
  filter: ItemFilter,
  order: ItemOrder,
  page: Page,
  many = false,
  start?: PageStart,
) {
  if (wordsOnly(filter, order)) return wordsPageQueries(ex, actor, filter, filter.words!, page);
  // SQLite keeps a CROSS JOIN's order, and the order decides the cost. Of one lab: the lab row first (found once,
  // visibility checked once), then its slice of the (lab_id, …) indexes; items first, the lab's visibility was
  // checked for every item counted or skipped (~2 ms a page at 10,000 items per lab). Of every visible lab: items
  // first, walking the (created_at, id, lab_id) index and stopping at the page, because `lab_id IN (visible labs)`
  // made SQLite read every visible item through the lab index and sort them all (~70 ms at 100,000 items).
  // PostgreSQL plans all these forms alike. Each search filter and sort has its own index (migration 0010).
  let scope =
    filter.labId !== undefined
      ? ex.selectFrom('labs').crossJoin('inventory_items').where('labs.id', '=', filter.labId)
      : ex.selectFrom('inventory_items').crossJoin('labs');
  scope = scope.whereRef('labs.id', '=', 'inventory_items.lab_id').where('labs.organization_id', '=', actor.organizationId);
  if (actor.role !== 'admin') scope = scope.where('labs.id', 'in', visibleLabIds(ex, actor));
  // The page's ids come from the index alone; only the page's rows are then read, never the rows OFFSET skips.
  // expiring_before on SQLite (without statistics) has two plans, and the (bounded) count chooses (`many`: it
  // reached its bound, listVisibleItems). Few matches: `+` keeps the order from an index, so the expiry index finds
  // the items, which are then sorted; walking the order instead read every item when none expire (~40 ms at
  // 100,000 items). Many: the order's index is walked, reading each item's expiry until the page is full (~330 rows
  // when 8 % expire), `+` keeping the expiry index from the filter; sorting them all cost ~40 ms at 1,000,000.
  // With the expiry's own order, its index does both.
  const expiryPlan = !isPostgres(ex) && filter.expiringBefore !== undefined && order.column !== 'soonest_expiry';
  const conditions = filterConditions(ex, filter, expiryPlan && many);
  if (conditions.length > 0) scope = scope.where((eb) => eb.and(conditions));
  const byExpiry = expiryPlan && !many;
  let ids = orderedBy(scope.select('inventory_items.id'), order, true, byExpiry).limit(page.perPage);
  // A plain list of a lab, or of its organization for an admin, starts at its page's run and skips less than a run
  // (./page-marks-repository.ts, listVisibleItems); every other list skips its offset (a search's is bounded).
  ids = start === undefined ? ids.offset(page.offset) : ids.where(fromRunKey(start)).offset(start.skip);
  // Counting every visible lab's items is cheapest as `lab_id IN (visible labs)` over the narrowest lab index.
  let counted =
    filter.labId !== undefined ? scope : ex.selectFrom('inventory_items').where('inventory_items.lab_id', 'in', visibleLabIds(ex, actor));
  if (filter.labId === undefined && conditions.length > 0) counted = counted.where((eb) => eb.and(conditions));
  return {
    // The plain list's total is each lab's count, kept exact by triggers (migration 0017): one row per lab read.
    count: conditions.length > 0 ? bounded(ex, counted, page) : labCounts(ex, actor, filter.labId),
    rows: orderedBy(pageDocuments(ex, ids), order, false),
  };
}

/**
 * A search's count stops at its bound (rules.ts countBoundOf, docs/decisions/0014-bounded-search-counts.md): a
 * common word's 110,000 matches cost ~150 ms to count on SQLite at 1,000,000 items. The plain list counts them all.
 */
function bounded<DB, TB extends keyof DB, O>(ex: Executor, found: SelectQueryBuilder<DB, TB, O>, page: Page) {
  const matches = found.select(sql<number>`1`.as('one')).limit(countBoundOf(page));
  return ex.selectFrom(matches.as('matches')).select((eb) => eb.fn.countAll<string | number>().as('n'));
}

/** A page's item: its id and stored document (null while none is stored) with the shape it was written with. */
export interface PageRow {
  id: string;
  rendered: string | null;
  rendered_shape: string | null;
}

/**
 * The sort column (if any), then creation time and id, all in one direction so that one index serves the order.
 * Without a sort the statements are the ones the list ran before search existed.
 */
function orderedBy<QB extends SelectQueryBuilder<Database, 'inventory_items', object>>(
  qb: QB,
  order: ItemOrder,
  qualified: boolean,
  noIndex = false,
): QB {
  let q = qb;
  const columns = order.column ? [order.column, 'created_at' as const, 'id' as const] : (['created_at', 'id'] as const);
  for (const [i, column] of columns.entries()) {
    const name = qualified ? (`inventory_items.${column}` as const) : column;
    // SQLite's unary + returns its operand unchanged (the same order), as an expression no index provides.
    const ref = noIndex && i === 0 ? sql`+${sql.ref(name)}` : name;
    q = (order.descending ? q.orderBy(ref, 'desc') : q.orderBy(ref)) as QB;
  }
  return q;
}

/**
 * Words alone (with lab_id, in the default order) are answered from the search table, which holds each item's lab
 * and creation time (neither ever changes): a common word's thousands of matches are counted and ordered there,
 * without reading their items (at 100,000 items, "anti" matched 11,428: ~100 ms through the items, see
 * docs/performance.md). Only the page's 25 items are read.
 */
const wordsOnly = (f: ItemFilter, order: ItemOrder) =>
  (f.words?.length ?? 0) > 0 &&
  order.column === null &&
  f.typeId === undefined &&
  f.locationId === undefined &&
  f.expiringBefore === undefined &&
  f.hazardClass === undefined &&
  !f.belowMinimum;

function wordsPageQueries(ex: Executor, actor: Actor, filter: ItemFilter, words: QueryWord[], page: Page) {
  if (!isPostgres(ex)) return ftsPageQueries(ex, actor, filter, words, page);
  let found = ex
    .selectFrom('inventory_item_search')
    .where(searchRowMatches(words))
    .where('inventory_item_search.lab_id', 'in', visibleLabIds(ex, actor));
  if (filter.labId !== undefined) found = found.where('inventory_item_search.lab_id', '=', filter.labId);
  const ids = found
    .select('inventory_item_search.item_id')
    .orderBy('inventory_item_search.created_at')
    .orderBy('inventory_item_search.item_id')
    .limit(page.perPage)
    .offset(page.offset);
  return { count: bounded(ex, found, page), rows: pageRows(ex, ids) };
}

/**
 * SQLite: the full-text table that finds the words, and its MATCH expression: the trigram table when a word is
 * long enough to be matched inside words (its shorter words are then checked on the found rows, `shortWordsLike`),
 * else the word table, by prefix.
 */
function ftsOf(words: QueryWord[]) {
  const { inside, starts } = splitWords(words);
  return inside.length > 0
    ? { table: 'inventory_item_search_trigram', match: trigramMatch(inside), rest: starts }
    : { table: 'inventory_item_search_fts', match: ftsMatch(starts), rest: [] };
}

/**
 * SQLite: the FTS5 tables' rowids are the search rows' ids, which are in the list's order (rules.ts searchIdBase,
 * kept by storeItemIndexes), so the matches come out of the full-text index in that order: the page stops after
 * its rows and the count at its bound, however many items hold the word. A cross join keeps that order.
 */
function ftsPageQueries(ex: Executor, actor: Actor, filter: ItemFilter, words: QueryWord[], page: Page) {
  const fts = ftsOf(words);
  const table = sql.table(fts.table);
  let found = ex
    // Aliased by its own name (typed as any one alias), so that a plan names the table it reads (test/perf/).
    .selectFrom(sql`${table}`.as(fts.table as 'fts'))
    .crossJoin('inventory_item_search')
    .where(sql<SqlBool>`${table} match ${fts.match}`)
    .where(sql<SqlBool>`${sql.ref('inventory_item_search.id')} = ${table}.rowid`)
    .where('inventory_item_search.lab_id', 'in', visibleLabIds(ex, actor));
  if (fts.rest.length > 0) found = found.where(shortWordsLike(fts.rest));
  if (filter.labId !== undefined) found = found.where('inventory_item_search.lab_id', '=', filter.labId);
  const ids = found.select('inventory_item_search.item_id').orderBy(sql`${table}.rowid`).limit(page.perPage).offset(page.offset);
  return { count: bounded(ex, found, page), rows: pageRows(ex, ids) };
}

const pageRows = (ex: Executor, ids: SelectQueryBuilder<never, never, { item_id: string }>) =>
  pageDocuments(ex, ids).orderBy('created_at').orderBy('id');

/**
 * The page's items as their stored documents (migration 0017, ../stored/): the id and the JSON text GET serves with
 * the shape it was written with, or null for an item whose document is not written yet (../stored/documents.ts
 * renders those, and those of another shape).
 */
const pageDocuments = (ex: Executor, ids: Expression<unknown> | SelectQueryBuilder<never, never, { item_id: string }>) =>
  ex
    .selectFrom('inventory_items')
    .select(['inventory_items.id', 'inventory_items.rendered', 'inventory_items.rendered_shape'])
    .where('inventory_items.id', 'in', ids as never);

/** The items of one lab, or of every lab the caller sees: the sum of their counts (a row per lab, never the items). */
const labCounts = (ex: Executor, actor: Actor, labId: string | undefined) => {
  const q = ex
    .selectFrom('inventory_lab_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('inventory_lab_counts.items'), sql<number>`0`).as('n'));
  // One lab: its row, visibility checked on that row alone (an IN list would hold every lab the caller sees).
  if (labId !== undefined)
    return q
      .where('inventory_lab_counts.lab_id', '=', labId)
      .where((eb) => eb.exists(labIsVisible(ex, actor, 'inventory_lab_counts.lab_id')));
  return q.where('inventory_lab_counts.lab_id', 'in', visibleLabIds(ex, actor));
};

/**
 * PostgreSQL: search rows holding every word. Words of 3 characters or more anywhere in the document, through the
 * trigram GIN index (`LIKE '%word%'`, migration 0025); shorter ones by the start of a word: through the tsvector GIN
 * index when they are the only words (the query repeats the index's expression), else checked on the found rows.
 */
function searchRowMatches(words: QueryWord[]) {
  const { inside, starts } = splitWords(words);
  if (inside.length === 0)
    return sql<SqlBool>`to_tsvector('simple', ${sql.ref('inventory_item_search.document')}) @@ to_tsquery('simple', ${tsQuery(starts)})`;
  const anywhere = inside.map((w) =>
    anyOf(likePatterns(w, true).map((p) => sql<SqlBool>`${sql.ref('inventory_item_search.document')} like ${p}`)),
  );
  return sql<SqlBool>`${sql.join([...anywhere, ...(starts.length > 0 ? [shortWordsLike(starts)] : [])], sql` and `)}`;
}

/** Short words at the start of a word of the search row's document: each word's forms after a space. */
const shortWordsLike = (words: QueryWord[]) =>
  sql<SqlBool>`${sql.join(
    words.map((w) =>
      anyOf(likePatterns(w, false).map((p) => sql<SqlBool>`(' ' || ${sql.ref('inventory_item_search.document')}) like ${p}`)),
    ),
    sql` and `,
  )}`;

const anyOf = (alternatives: RawBuilder<SqlBool>[]) => sql<SqlBool>`(${sql.join(alternatives, sql` or `)})`;

/** Items whose search row holds every word. */
function itemMatches(ex: Executor, words: QueryWord[]) {
  if (isPostgres(ex)) return itemIdIn(ex, sql`select item_id from inventory_item_search where ${searchRowMatches(words)}`);
  const fts = ftsOf(words);
  const rest = fts.rest.length > 0 ? sql` and ${shortWordsLike(fts.rest)}` : sql``;
  return itemIdIn(
    ex,
    sql`select inventory_item_search.item_id from ${sql.table(fts.table)} cross join inventory_item_search
      where ${sql.table(fts.table)} match ${fts.match} and inventory_item_search.id = ${sql.table(fts.table)}.rowid${rest}`,
  );
}

/**
 * The item is one of the subquery's. PostgreSQL gets them as an array: it then reads those items by their primary
 * key. As a semi-join it could not estimate how many a location tree or a word gives, guessed thousands, and read
 * every item (~60 ms at 100,000 items, for 178 found).
 */
const itemIdIn = (ex: Executor, ids: Expression<unknown>) =>
  isPostgres(ex)
    ? sql<SqlBool>`${sql.ref('inventory_items.id')} = any(array(${ids}))`
    : sql<SqlBool>`${sql.ref('inventory_items.id')} in (${ids})`;

/** The search filters as conditions on inventory_items (the visible-labs rules are the caller's). */
function filterConditions(ex: Executor, filter: ItemFilter, unindexedExpiry = false): Expression<SqlBool>[] {
  const eb = expressionBuilder<Database, 'inventory_items'>();
  const out: Expression<SqlBool>[] = [];
  if (filter.typeId !== undefined) out.push(eb('inventory_items.type_id', '=', filter.typeId));
  if (filter.expiringBefore !== undefined)
    out.push(
      unindexedExpiry
        ? sql<SqlBool>`+${sql.ref('inventory_items.soonest_expiry')} < ${filter.expiringBefore}`
        : eb('inventory_items.soonest_expiry', '<', filter.expiringBefore),
    );
  // A literal, so that SQLite may use the partial indexes `where below_minimum = 1` (a bound parameter could be anything).
  if (filter.belowMinimum) out.push(sql<SqlBool>`${sql.ref('inventory_items.below_minimum')} = 1`);
  if (filter.locationId !== undefined) out.push(itemIdIn(ex, itemsStoredUnder(ex, filter.locationId)));
  if (filter.words && filter.words.length > 0) out.push(itemMatches(ex, filter.words));
  if (filter.hazardClass !== undefined)
    out.push(hazardClassCondition(filter.hazardClass, { id: 'inventory_items.id', typeId: 'inventory_items.type_id' }));
  return out;
}

export { storeItemIndexes } from './documents/repository.js';
