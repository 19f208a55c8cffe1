import { sql } from 'kysely';
import { visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import type { InstancesTable, InventoryItemsTable, ItemChangesTable } from '../shared/db/schema.js';
import type { Page } from '../shared/pagination.js';

export type ItemRow = InventoryItemsTable;
export type InstanceRow = InstancesTable;

export async function listVisibleItems(ex: Executor, actor: Actor, filter: { labId?: string }, page: Page) {
  let base = ex.selectFrom('inventory_items').where('inventory_items.lab_id', 'in', visibleLabIds(ex, actor));
  if (filter.labId !== undefined) base = base.where('inventory_items.lab_id', '=', filter.labId);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
    base.selectAll('inventory_items').orderBy('inventory_items.created_at').orderBy('inventory_items.id').limit(page.perPage).offset(page.offset).execute(),
  ]);
  return { total: Number(count.n), rows };
}

/** With `lock`, the row stays locked until the transaction ends (PostgreSQL; SQLite transactions hold the write lock). */
export function findVisibleItem(ex: Executor, actor: Actor, id: string, opts: { lock?: boolean } = {}) {
  let q = ex.selectFrom('inventory_items').selectAll().where('id', '=', id).where('lab_id', 'in', visibleLabIds(ex, actor));
  if (opts.lock && isPostgres(ex)) q = q.forUpdate();
  return q.executeTakeFirst();
}

export function findActiveInstanceLocked(ex: Executor, itemId: string, instanceId: string) {
  let q = ex.selectFrom('inventory_item_instances').selectAll()
    .where('id', '=', instanceId).where('item_id', '=', itemId).where('archived_at', 'is', null);
  if (isPostgres(ex)) q = q.forUpdate();
  return q.executeTakeFirst();
}

export const findItem = (ex: Executor, id: string) => ex.selectFrom('inventory_items').selectAll().where('id', '=', id).executeTakeFirst();

export const findItemByCatalog = (ex: Executor, labId: string, vendor: string, catalogNumber: string) =>
  ex.selectFrom('inventory_items').selectAll()
    .where('lab_id', '=', labId).where('vendor', '=', vendor).where('catalog_number', '=', catalogNumber)
    .orderBy('created_at').orderBy('id').executeTakeFirst();

export async function activeInstancesOf(ex: Executor, itemIds: string[]): Promise<InstanceRow[]> {
  if (itemIds.length === 0) return [];
  return ex.selectFrom('inventory_item_instances').selectAll()
    .where('item_id', 'in', itemIds).where('archived_at', 'is', null)
    .orderBy('created_at').orderBy('id').execute();
}

export const findActiveInstance = (ex: Executor, itemId: string, instanceId: string) =>
  ex.selectFrom('inventory_item_instances').selectAll()
    .where('id', '=', instanceId).where('item_id', '=', itemId).where('archived_at', 'is', null).executeTakeFirst();

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
  change: { userId: string; now: string; expectedVersion?: number; set?: Partial<Pick<ItemRow, 'quantity'>> },
): Promise<boolean> {
  let q = ex.updateTable('inventory_items')
    .set({ ...(change.set ?? {}), updated_by: change.userId, updated_at: change.now, version: sql<number>`version + 1` })
    .where('id', '=', id);
  if (change.expectedVersion !== undefined) q = q.where('version', '=', change.expectedVersion);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function setInstanceQuantity(ex: Executor, instanceId: string, quantity: string, now: string): Promise<void> {
  await ex.updateTable('inventory_item_instances').set({ quantity, updated_at: now }).where('id', '=', instanceId).execute();
}

export async function insertChanges(ex: Executor, rows: ItemChangesTable[]): Promise<void> {
  if (rows.length > 0) await ex.insertInto('inventory_item_changes').values(rows).execute();
}
