import { sql } from 'kysely';
import { visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import { pagedList } from '../shared/db/paged-list.js';
import type { OrderRequestEventsTable, OrderRequestsTable, OrderStatus } from '../shared/db/schema.js';
import type { Page } from '../shared/pagination.js';

export type OrderRow = OrderRequestsTable;

/** GET /order-requests' filters; without q, requestedBy and newestFirst the list is the contract's. */
export interface OrderFilter {
  labId?: string;
  statuses?: OrderStatus[];
  /** Case-insensitive substring of the item's name, the vendor or the catalog number. */
  q?: string;
  requestedBy?: string;
  newestFirst?: boolean;
}

/** `%`, `_` and the escape itself match only themselves in a LIKE pattern (ESCAPE '\\' on both databases). */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listVisibleOrders(ex: Executor, actor: Actor, filter: OrderFilter, page: Page) {
  let base = ex.selectFrom('order_requests').where('order_requests.lab_id', 'in', visibleLabIds(ex, actor));
  if (filter.labId !== undefined) base = base.where('order_requests.lab_id', '=', filter.labId);
  if (filter.statuses && filter.statuses.length > 0) base = base.where('order_requests.status', 'in', filter.statuses);
  if (filter.requestedBy !== undefined) base = base.where('order_requests.requested_by', '=', filter.requestedBy);
  if (filter.q !== undefined) {
    const pattern = likePattern(filter.q);
    base = base.where((eb) =>
      eb.or(
        (['item_name', 'vendor_name', 'catalog_number'] as const).map(
          (column) => sql<boolean>`lower(${eb.ref(`order_requests.${column}`)}) like ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  // requested_at and created_at are the same instant (createOrder sets both), and created_at has the index.
  const direction = filter.newestFirst ? 'desc' : 'asc';
  return pagedList(
    base,
    base.selectAll('order_requests').orderBy('order_requests.created_at', direction).orderBy('order_requests.id', direction),
    page,
  );
}

export const findVisibleOrder = (ex: Executor, actor: Actor, id: string) =>
  ex.selectFrom('order_requests').selectAll().where('id', '=', id).where('lab_id', 'in', visibleLabIds(ex, actor)).executeTakeFirst();

/**
 * The request, row-locked on PostgreSQL until the transaction ends, for a change that depends on its status: a
 * concurrent caller waits and then reads the status the first one set (so an identical PUT finds it already set,
 * as it would one after the other). SQLite's write transactions are serial already.
 */
export function findVisibleOrderForUpdate(ex: Executor, actor: Actor, id: string) {
  const q = ex.selectFrom('order_requests').selectAll().where('id', '=', id).where('lab_id', 'in', visibleLabIds(ex, actor));
  return (isPostgres(ex) ? q.forUpdate() : q).executeTakeFirst();
}

export const findOrder = (ex: Executor, id: string) => ex.selectFrom('order_requests').selectAll().where('id', '=', id).executeTakeFirst();

/** Requests by id, in no particular order; ids that do not exist are missing (`labId` narrows to one lab). */
export const ordersByIds = (ex: Executor, ids: string[], labId?: string) => {
  if (ids.length === 0) return Promise.resolve([] as OrderRow[]);
  const q = ex.selectFrom('order_requests').selectAll().where('id', 'in', ids);
  return (labId === undefined ? q : q.where('lab_id', '=', labId)).execute();
};

/**
 * Requests of one lab by id, row-locked on PostgreSQL until the transaction ends (see findVisibleOrderForUpdate),
 * in id order so that two callers locking overlapping sets cannot deadlock.
 */
export function ordersByIdsForUpdate(ex: Executor, ids: string[], labId: string) {
  if (ids.length === 0) return Promise.resolve([] as OrderRow[]);
  const q = ex.selectFrom('order_requests').selectAll().where('id', 'in', ids).where('lab_id', '=', labId).orderBy('id');
  return (isPostgres(ex) ? q.forUpdate() : q).execute();
}

export async function setBackorderedExpectedAt(
  ex: Executor,
  id: string,
  expected: string | null,
  userId: string,
  now: string,
): Promise<void> {
  await ex
    .updateTable('order_requests')
    .set({ backordered_expected_at: expected, updated_by: userId, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Marks a request as checked out into a shop line. The shop calls it in the checkout's transaction, so order
 * requests learn that their status follows the shop from their own row (docs/decisions/0008-shop-and-order-requests.md).
 */
export async function markCheckedOut(ex: Executor, id: string, lineId: string): Promise<void> {
  await ex.updateTable('order_requests').set({ checked_out_line_id: lineId }).where('id', '=', id).execute();
}

/** Deletes a request and its history; false if it was already gone (a concurrent delete). */
export async function deleteOrderWithHistory(ex: Executor, id: string): Promise<boolean> {
  await ex.deleteFrom('order_request_events').where('order_request_id', '=', id).execute();
  const deleted = await ex.deleteFrom('order_requests').where('id', '=', id).executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}

export async function insertOrder(ex: Executor, row: OrderRow): Promise<void> {
  await ex.insertInto('order_requests').values(row).execute();
}

export async function insertHistory(ex: Executor, row: OrderRequestEventsTable): Promise<void> {
  await ex.insertInto('order_request_events').values(row).execute();
}

export const historyOf = (ex: Executor, orderId: string) =>
  ex.selectFrom('order_request_events').selectAll().where('order_request_id', '=', orderId).orderBy('created_at').orderBy('id').execute();

/** The newest `limit` entries of a request's history, oldest first (the (order_request_id, created_at, id) index, read backwards). */
export async function recentHistoryOf(ex: Executor, orderId: string, limit: number) {
  const newestFirst = await ex
    .selectFrom('order_request_events')
    .selectAll()
    .where('order_request_id', '=', orderId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return newestFirst.reverse();
}

/** The unit price and currency of the lab's latest request for a product, for "reorder" (src/order-requests/reorder.ts). */
export function lastPriceOf(ex: Executor, labId: string, vendorName: string, catalogNumber: string) {
  return ex
    .selectFrom('order_requests')
    .select(['unit_price', 'currency'])
    .where('lab_id', '=', labId)
    .where('vendor_name', '=', vendorName)
    .where('catalog_number', '=', catalogNumber)
    .orderBy('requested_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
