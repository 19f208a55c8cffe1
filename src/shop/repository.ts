import { visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import { pagedList } from '../shared/db/paged-list.js';
import type { SalesOrderItemsTable, SalesOrdersTable, ShipmentsTable } from '../shared/db/schema.js';
import type { Page } from '../shared/pagination.js';

export type SalesOrderRow = SalesOrdersTable;
export type LineRow = SalesOrderItemsTable;
export type ShipmentRow = ShipmentsTable;

/** Rows per INSERT: under SQLite's bound-parameter limit for these widths. */
const CHUNK = 200;

export async function insertSalesOrder(ex: Executor, row: SalesOrderRow, lines: LineRow[]): Promise<void> {
  await ex.insertInto('sales_orders').values(row).execute();
  for (let i = 0; i < lines.length; i += CHUNK)
    await ex
      .insertInto('sales_order_items')
      .values(lines.slice(i, i + CHUNK))
      .execute();
}

export const orderKeyExists = async (ex: Executor, key: string): Promise<boolean> =>
  (await ex.selectFrom('sales_orders').select('id').where('key', '=', key).executeTakeFirst()) !== undefined;

export async function listVisibleSalesOrders(ex: Executor, actor: Actor, filter: { labId?: string }, page: Page) {
  let base = ex.selectFrom('sales_orders').where('lab_id', 'in', visibleLabIds(ex, actor));
  if (filter.labId !== undefined) base = base.where('lab_id', '=', filter.labId);
  return pagedList(base, base.selectAll().orderBy('created_at').orderBy('id'), page);
}

export const findVisibleSalesOrder = (ex: Executor, actor: Actor, id: string) =>
  ex.selectFrom('sales_orders').selectAll().where('id', '=', id).where('lab_id', 'in', visibleLabIds(ex, actor)).executeTakeFirst();

export const findSalesOrder = (ex: Executor, id: string) =>
  ex.selectFrom('sales_orders').selectAll().where('id', '=', id).executeTakeFirst();

export async function salesOrdersByIds(ex: Executor, ids: Iterable<string>): Promise<Map<string, SalesOrderRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await ex.selectFrom('sales_orders').selectAll().where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export const linesOfOrders = (ex: Executor, orderIds: string[]) =>
  orderIds.length === 0
    ? Promise.resolve([] as LineRow[])
    : ex.selectFrom('sales_order_items').selectAll().where('sales_order_id', 'in', orderIds).orderBy('created_at').orderBy('id').execute();

/** The line, row-locked on PostgreSQL until the transaction ends (SQLite's write transactions are serial). */
export async function findLineForUpdate(ex: Executor, id: string): Promise<LineRow | undefined> {
  const q = ex.selectFrom('sales_order_items').selectAll().where('id', '=', id);
  return (isPostgres(ex) ? q.forUpdate() : q).executeTakeFirst();
}

export const findLine = (ex: Executor, id: string) =>
  ex.selectFrom('sales_order_items').selectAll().where('id', '=', id).executeTakeFirst();

/** Open lines for operators, oldest first, optionally of some statuses. */
export async function listLines(ex: Executor, filter: { statuses?: string[] }, page: Page) {
  let base = ex.selectFrom('sales_order_items');
  if (filter.statuses && filter.statuses.length > 0) base = base.where('status', 'in', filter.statuses);
  return pagedList(base, base.selectAll().orderBy('created_at').orderBy('id'), page);
}

export async function checkedOutRequests(ex: Executor, orderRequestIds: string[]): Promise<Set<string>> {
  if (orderRequestIds.length === 0) return new Set();
  const rows = await ex
    .selectFrom('sales_order_items')
    .select('order_request_id')
    .where('order_request_id', 'in', orderRequestIds)
    .execute();
  return new Set(rows.map((r) => r.order_request_id));
}

/**
 * Changes a line only if its status is still `from`: two operators acting on one line at once cannot both win.
 */
export async function updateLine(ex: Executor, id: string, from: string, set: Partial<LineRow>): Promise<boolean> {
  const r = await ex.updateTable('sales_order_items').set(set).where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export const shipmentsOfLines = (ex: Executor, lineIds: string[]) =>
  lineIds.length === 0
    ? Promise.resolve([] as ShipmentRow[])
    : ex.selectFrom('shipments').selectAll().where('sales_order_item_id', 'in', lineIds).orderBy('created_at').orderBy('id').execute();

export const findShipment = (ex: Executor, id: string) => ex.selectFrom('shipments').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertShipment(ex: Executor, row: ShipmentRow): Promise<void> {
  await ex.insertInto('shipments').values(row).execute();
}

/** Marks a shipment delivered only if it was not already: a second delivery of the same box is refused. */
export async function markDelivered(ex: Executor, id: string, at: string): Promise<boolean> {
  const r = await ex
    .updateTable('shipments')
    .set({ delivered_at: at })
    .where('id', '=', id)
    .where('delivered_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
