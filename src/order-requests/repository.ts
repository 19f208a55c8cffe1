import { visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { OrderRequestEventsTable, OrderRequestsTable, OrderStatus } from '../shared/db/schema.js';
import type { Page } from '../shared/pagination.js';

export type OrderRow = OrderRequestsTable;

export async function listVisibleOrders(ex: Executor, actor: Actor, filter: { labId?: string; statuses?: OrderStatus[] }, page: Page) {
  let base = ex.selectFrom('order_requests').where('order_requests.lab_id', 'in', visibleLabIds(ex, actor));
  if (filter.labId !== undefined) base = base.where('order_requests.lab_id', '=', filter.labId);
  if (filter.statuses && filter.statuses.length > 0) base = base.where('order_requests.status', 'in', filter.statuses);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
    base.selectAll('order_requests').orderBy('order_requests.created_at').orderBy('order_requests.id').limit(page.perPage).offset(page.offset).execute(),
  ]);
  return { total: Number(count.n), rows };
}

export const findVisibleOrder = (ex: Executor, actor: Actor, id: string) =>
  ex.selectFrom('order_requests').selectAll().where('id', '=', id).where('lab_id', 'in', visibleLabIds(ex, actor)).executeTakeFirst();

export const findOrder = (ex: Executor, id: string) => ex.selectFrom('order_requests').selectAll().where('id', '=', id).executeTakeFirst();

/** Requests by id, in no particular order; ids that do not exist are missing (`labId` narrows to one lab). */
export const ordersByIds = (ex: Executor, ids: string[], labId?: string) => {
  if (ids.length === 0) return Promise.resolve([] as OrderRow[]);
  const q = ex.selectFrom('order_requests').selectAll().where('id', 'in', ids);
  return (labId === undefined ? q : q.where('lab_id', '=', labId)).execute();
};

export async function setBackorderedExpectedAt(ex: Executor, id: string, expected: string | null, userId: string, now: string): Promise<void> {
  await ex.updateTable('order_requests').set({ backordered_expected_at: expected, updated_by: userId, updated_at: now }).where('id', '=', id).execute();
}

export async function insertOrder(ex: Executor, row: OrderRow): Promise<void> {
  await ex.insertInto('order_requests').values(row).execute();
}

/** Moves the status only if it is still `from`, so two concurrent transitions cannot both apply. */
export async function setStatus(ex: Executor, id: string, from: OrderStatus, to: OrderStatus, userId: string, now: string): Promise<boolean> {
  const r = await ex.updateTable('order_requests').set({ status: to, updated_by: userId, updated_at: now })
    .where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertHistory(ex: Executor, row: OrderRequestEventsTable): Promise<void> {
  await ex.insertInto('order_request_events').values(row).execute();
}

export const historyOf = (ex: Executor, orderId: string) =>
  ex.selectFrom('order_request_events').selectAll().where('order_request_id', '=', orderId).orderBy('created_at').orderBy('id').execute();
