import { type Expression, expressionBuilder, type Selectable, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { forEachChunk } from '../shared/db/chunks.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import type { Database, InstancesTable, ItemChangesTable } from '../shared/db/schema.js';
import type { Page } from '../shared/pagination.js';
import { ftsMatch, type ItemFilter, type ItemIndex, type ItemOrder, tsQuery } from './search.js';

export type ItemRow = Selectable<Database['inventory_items']>;
export type InstanceRow = InstancesTable;

export async function listVisibleItems(ex: Executor, actor: Actor, filter: ItemFilter, order: ItemOrder, page: Page) {
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
  const conditions = filterConditions(ex, filter);
  if (conditions.length > 0) scope = scope.where((eb) => eb.and(conditions));
  // The page's ids come from the index alone; only the page's rows are then read, never the rows OFFSET skips.
  const ids = orderedBy(scope.select('inventory_items.id'), order, true).limit(page.perPage).offset(page.offset);
  // Counting every visible lab's items is cheapest as `lab_id IN (visible labs)` over the narrowest lab index.
  let counted =
    filter.labId !== undefined ? scope : ex.selectFrom('inventory_items').where('inventory_items.lab_id', 'in', visibleLabIds(ex, actor));
  if (filter.labId === undefined && conditions.length > 0) counted = counted.where((eb) => eb.and(conditions));
  const [count, rows] = await Promise.all([
    counted.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
    orderedBy(ex.selectFrom('inventory_items').selectAll().where('id', 'in', ids), order, false).execute(),
  ]);
  return { total: Number(count.n), rows };
}

/**
 * The sort column (if any), then creation time and id, all in one direction so that one index serves the order.
 * Without a sort the statements are the ones the list ran before search existed.
 */
function orderedBy<QB extends SelectQueryBuilder<Database, 'inventory_items', object>>(qb: QB, order: ItemOrder, qualified: boolean): QB {
  let q = qb;
  for (const column of order.column ? [order.column, 'created_at' as const, 'id' as const] : (['created_at', 'id'] as const)) {
    const ref = qualified ? (`inventory_items.${column}` as const) : column;
    q = (order.descending ? q.orderBy(ref, 'desc') : q.orderBy(ref)) as QB;
  }
  return q;
}

/** The search filters as conditions on inventory_items (the visible-labs rules are the caller's). */
function filterConditions(ex: Executor, filter: ItemFilter): Expression<SqlBool>[] {
  const eb = expressionBuilder<Database, 'inventory_items'>();
  const out: Expression<SqlBool>[] = [];
  if (filter.typeId !== undefined) out.push(eb('inventory_items.type_id', '=', filter.typeId));
  if (filter.expiringBefore !== undefined) out.push(eb('inventory_items.soonest_expiry', '<', filter.expiringBefore));
  // A literal, so that SQLite may use the partial indexes `where below_minimum = 1` (a bound parameter could be anything).
  if (filter.belowMinimum) out.push(sql<SqlBool>`${sql.ref('inventory_items.below_minimum')} = 1`);
  if (filter.locationId !== undefined) out.push(eb('inventory_items.id', 'in', itemsStoredUnder(ex, filter.locationId)));
  if (filter.words && filter.words.length > 0) {
    const matches = isPostgres(ex)
      ? sql`select item_id from inventory_item_search where to_tsvector('simple', document) @@ to_tsquery('simple', ${tsQuery(filter.words)})`
      : sql`select item_id from inventory_item_search_fts where inventory_item_search_fts match ${ftsMatch(filter.words)}`;
    out.push(sql<SqlBool>`${sql.ref('inventory_items.id')} in (${matches})`);
  }
  return out;
}

/** Items with an active instance at the location or anywhere below it (UNION: a damaged tree with a cycle still ends). */
const itemsStoredUnder = (ex: Executor, locationId: string) =>
  ex
    .withRecursive('subtree(id)', (db) =>
      db
        .selectFrom('locations')
        .select('locations.id')
        .where('locations.id', '=', locationId)
        .union(db.selectFrom('locations').innerJoin('subtree', 'subtree.id', 'locations.parent_id').select('locations.id')),
    )
    .selectFrom('inventory_item_instances')
    .select('inventory_item_instances.item_id')
    .where('inventory_item_instances.archived_at', 'is', null)
    .where('inventory_item_instances.location_id', 'in', (qb) => qb.selectFrom('subtree').select('subtree.id'));

/** With `lock`, the row stays locked until the transaction ends (PostgreSQL; SQLite transactions hold the write lock). */
export function findVisibleItem(ex: Executor, actor: Actor, id: string, opts: { lock?: boolean } = {}) {
  let q = ex.selectFrom('inventory_items').selectAll().where('id', '=', id).where('lab_id', 'in', visibleLabIds(ex, actor));
  if (opts.lock && isPostgres(ex)) q = q.forUpdate();
  return q.executeTakeFirst();
}

export function findActiveInstanceLocked(ex: Executor, itemId: string, instanceId: string) {
  let q = ex
    .selectFrom('inventory_item_instances')
    .selectAll()
    .where('id', '=', instanceId)
    .where('item_id', '=', itemId)
    .where('archived_at', 'is', null);
  if (isPostgres(ex)) q = q.forUpdate();
  return q.executeTakeFirst();
}

export const findItem = (ex: Executor, id: string) => ex.selectFrom('inventory_items').selectAll().where('id', '=', id).executeTakeFirst();

export const findItemByCatalog = (ex: Executor, labId: string, vendor: string, catalogNumber: string) =>
  ex
    .selectFrom('inventory_items')
    .selectAll()
    .where('lab_id', '=', labId)
    .where('vendor', '=', vendor)
    .where('catalog_number', '=', catalogNumber)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();

/** What rendering needs of an item's active instances, grouped by item in creation order (one query per page). */
export async function activeInstancesOf(ex: Executor, itemIds: string[]) {
  if (itemIds.length === 0) return [];
  // Ordered by item first so the (item_id, created_at, id) index gives the order without a sort; each item's
  // instances keep their creation order. Only the columns an item shows are read (rows cost per column).
  return ex
    .selectFrom('inventory_item_instances')
    .select(['id', 'item_id', 'quantity', 'lot_number', 'expiration_date', 'location_id'])
    .where('item_id', 'in', itemIds)
    .where('archived_at', 'is', null)
    .orderBy('item_id')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export const findActiveInstance = (ex: Executor, itemId: string, instanceId: string) =>
  ex
    .selectFrom('inventory_item_instances')
    .selectAll()
    .where('id', '=', instanceId)
    .where('item_id', '=', itemId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();

export async function insertItem(ex: Executor, row: ItemRow): Promise<void> {
  await ex.insertInto('inventory_items').values(row).execute();
}

export async function insertInstance(ex: Executor, row: InstanceRow): Promise<void> {
  await ex.insertInto('inventory_item_instances').values(row).execute();
}

/**
 * Records that the item changed: bumps its version (the ETag) and who/when. With `expectedVersion` it is a
 * compare-and-set, so two writers holding the same ETag cannot both succeed. Returns whether it applied.
 */
export async function touchItem(
  ex: Executor,
  id: string,
  change: { userId: string; now: string; expectedVersion?: number; set?: Partial<ItemRow> },
): Promise<boolean> {
  let q = ex
    .updateTable('inventory_items')
    .set({ ...(change.set ?? {}), updated_by: change.userId, updated_at: change.now, version: sql<number>`version + 1` })
    .where('id', '=', id);
  if (change.expectedVersion !== undefined) q = q.where('version', '=', change.expectedVersion);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The item, its instances and its history, in the order their foreign keys need. */
export async function deleteItem(ex: Executor, id: string): Promise<void> {
  await ex.deleteFrom('inventory_item_search').where('item_id', '=', id).execute();
  await ex.deleteFrom('inventory_item_changes').where('item_id', '=', id).execute();
  await ex.deleteFrom('inventory_item_instances').where('item_id', '=', id).execute();
  await ex.deleteFrom('inventory_items').where('id', '=', id).execute();
}

export async function updateInstance(ex: Executor, instanceId: string, set: Partial<InstanceRow>, now: string): Promise<void> {
  await ex
    .updateTable('inventory_item_instances')
    .set({ ...set, updated_at: now })
    .where('id', '=', instanceId)
    .execute();
}

export async function setInstanceQuantity(ex: Executor, instanceId: string, quantity: string, now: string): Promise<void> {
  await ex.updateTable('inventory_item_instances').set({ quantity, updated_at: now }).where('id', '=', instanceId).execute();
}

export async function insertChanges(ex: Executor, rows: ItemChangesTable[]): Promise<void> {
  if (rows.length > 0) await ex.insertInto('inventory_item_changes').values(rows).execute();
}

export const changesOf = (ex: Executor, itemId: string) =>
  ex.selectFrom('inventory_item_changes').selectAll().where('item_id', '=', itemId).orderBy('created_at').orderBy('id').execute();

// What a location's rename, move or delete needs of the instances stored there (src/inventory/stored-at.ts).

export async function hasActiveInstancesAt(ex: Executor, locationId: string): Promise<boolean> {
  return (
    (await ex
      .selectFrom('inventory_item_instances')
      .select('id')
      .where('location_id', '=', locationId)
      .where('archived_at', 'is', null)
      .executeTakeFirst()) !== undefined
  );
}

/** Archived instances keep no location rather than a dangling one. */
export async function detachArchivedInstances(ex: Executor, locationId: string): Promise<void> {
  await ex.updateTable('inventory_item_instances').set({ location_id: null }).where('location_id', '=', locationId).execute();
}

export async function itemIdsStoredAt(ex: Executor, locationIds: string[]): Promise<string[]> {
  const rows = await ex
    .selectFrom('inventory_item_instances')
    .select('item_id')
    .distinct()
    .where('location_id', 'in', locationIds)
    .where('archived_at', 'is', null)
    .execute();
  return rows.map((r) => r.item_id);
}

/** Bumps many items' versions at once (their rendering changed, not their fields). */
export async function touchItems(ex: Executor, ids: string[], change: { userId: string; now: string }): Promise<void> {
  await ex
    .updateTable('inventory_items')
    .set({ version: sql<number>`version + 1`, updated_by: change.userId, updated_at: change.now })
    .where('id', 'in', ids)
    .execute();
}

export const findItems = (ex: Executor, ids: string[]) =>
  ex.selectFrom('inventory_items').selectAll().where('id', 'in', ids).orderBy('created_at').orderBy('id').execute();

// What an item is filtered, sorted and found by (src/inventory/search.ts), written in the transaction of each change.

/** Stores the items' index where it changed: the item columns by item (rarely any), the documents in one upsert per chunk. */
export async function storeItemIndexes(ex: Executor, entries: { row: ItemRow; index: ItemIndex }[]): Promise<void> {
  for (const { row, index } of entries) {
    if (row.name_key === index.name_key && row.soonest_expiry === index.soonest_expiry && row.below_minimum === index.below_minimum)
      continue;
    await ex
      .updateTable('inventory_items')
      .set({ name_key: index.name_key, soonest_expiry: index.soonest_expiry, below_minimum: index.below_minimum })
      .where('id', '=', row.id)
      .execute();
  }
  await forEachChunk(entries, (chunk) =>
    ex
      .insertInto('inventory_item_search')
      .values(chunk.map(({ row, index }) => ({ item_id: row.id, document: index.document })))
      .onConflict((oc) =>
        oc
          .column('item_id')
          .doUpdateSet({ document: (eb) => eb.ref('excluded.document') })
          .where('inventory_item_search.document', '<>', (eb) => eb.ref('excluded.document')),
      )
      .execute(),
  );
}
