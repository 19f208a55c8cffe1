import { type Selectable, sql } from 'kysely';
import { holdingsAdded, holdingsBeforeQuantitySet, holdingsRenamed, trackHoldings } from '../hazards/holdings-repository.js';
import { visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import type { Database, InstancesTable, ItemChangesTable } from '../shared/db/schema.js';

export type ItemRow = Selectable<Database['inventory_items']>;
export type InstanceRow = InstancesTable;

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

// Every write below that can change what a location holds keeps location_holdings true in the same transaction
// (src/hazards/holdings-repository.ts): the control-area meter reads those totals.

export async function insertInstance(ex: Executor, row: InstanceRow): Promise<void> {
  await ex.insertInto('inventory_item_instances').values(row).execute();
  await holdingsAdded(ex, { instanceIds: [row.id] });
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
  // A new unit size or type (whose statements the item may inherit) moves its containers to another holding.
  const profile = change.set && ('unit_size' in change.set || 'type_id' in change.set);
  const r = profile ? await trackHoldings(ex, { itemIds: [id] }, () => q.executeTakeFirst()) : await q.executeTakeFirst();
  const applied = Number(r.numUpdatedRows) === 1;
  // The meter names items by name and remembers what it read (src/inventory/area-holdings.ts).
  if (applied && change.set && 'name' in change.set) await holdingsRenamed(ex, id);
  return applied;
}

/** The item, its instances and its history, in the order their foreign keys need. */
export async function deleteItem(ex: Executor, id: string): Promise<void> {
  await ex.deleteFrom('inventory_item_search').where('item_id', '=', id).execute();
  await ex.deleteFrom('inventory_item_changes').where('item_id', '=', id).execute();
  await trackHoldings(ex, { itemIds: [id] }, () => ex.deleteFrom('inventory_item_instances').where('item_id', '=', id).execute());
  await ex.deleteFrom('inventory_items').where('id', '=', id).execute();
}

export async function updateInstance(ex: Executor, instanceId: string, set: Partial<InstanceRow>, now: string): Promise<void> {
  const update = () =>
    ex
      .updateTable('inventory_item_instances')
      .set({ ...set, updated_at: now })
      .where('id', '=', instanceId)
      .execute();
  if (!('quantity' in set || 'location_id' in set || 'archived_at' in set || 'item_id' in set)) await update();
  else if (Object.keys(set).length === 1 && 'quantity' in set) await setInstanceQuantity(ex, instanceId, set.quantity!, now);
  else await trackHoldings(ex, { instanceIds: [instanceId] }, update);
}

/** The caller holds the item's lock (touchItem or lockVisibleItem before). */
export async function setInstanceQuantity(ex: Executor, instanceId: string, quantity: string, now: string): Promise<void> {
  await holdingsBeforeQuantitySet(ex, instanceId, quantity);
  await ex.updateTable('inventory_item_instances').set({ quantity, updated_at: now }).where('id', '=', instanceId).execute();
}

/** A history line, with the order request it received goods from or the stocktake it came from (migrations 0029, 0033). */
export type InstanceChangeRow = ItemChangesTable & { order_request_id?: string | null; stocktake_session_id?: string | null };

export async function insertChanges(ex: Executor, rows: InstanceChangeRow[]): Promise<void> {
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
