import { userSummaries } from '../accounts/repository.js';
import type { UserSummary } from '../accounts/schemas.js';
import { labsByIds } from '../labs/repository.js';
import type { Lab } from '../labs/schemas.js';
import type { Executor } from '../shared/db/database.js';
import { dec } from '../shared/decimal.js';
import { toMoney } from '../shared/money.js';
import { typeRefsByIds } from '../types/repository.js';
import type { TypeRef } from '../types/schemas.js';
import { historyOf, type OrderRow, recentHistoryOf } from './repository.js';
import { EVENT_HISTORY_LIMIT, type OrderRequest, type OrderRequestWithHistory } from './schemas.js';
import { recentHistoryWithUsersOf } from './write-repository.js';

export const orderAppUrl = (appUrl: string, id: string): string => `${appUrl}/app/order-requests/${id}`;

/** Public order requests from rows, with labs, users and types fetched in one batch each. */
export async function renderOrders(ex: Executor, appUrl: string, rows: OrderRow[]): Promise<OrderRequest[]> {
  if (rows.length === 0) return [];
  const [labs, users, types] = await Promise.all([
    labsByIds(
      ex,
      rows.map((r) => r.lab_id),
    ),
    userSummaries(
      ex,
      rows.flatMap((r) => [r.requested_by, r.created_by]),
    ),
    typeRefsByIds(
      ex,
      rows.map((r) => r.type_id),
    ),
  ]);
  return rows.map((r) => renderOrderFrom(appUrl, r, labs.get(r.lab_id)!, users, types.get(r.type_id)!));
}

/**
 * A public order request from its row and what it embeds, read already (the embedded users by id: its requester
 * and creator). Every order request of the API and of the events is made here, so all have the same keys in the
 * same order (the events' JSON is the contract's, byte for byte).
 */
export function renderOrderFrom(appUrl: string, r: OrderRow, lab: Lab, users: Map<string, UserSummary>, type: TypeRef): OrderRequest {
  return {
    id: r.id,
    status: r.status,
    vendor_name: r.vendor_name,
    catalog_number: r.catalog_number,
    quantity: r.quantity,
    unit_size: r.unit_size,
    unit_price: r.unit_price,
    total_price: toMoney(dec(r.unit_price).mul(r.quantity), r.currency),
    requested_at: r.requested_at,
    updated_at: r.updated_at,
    requested_by: users.get(r.requested_by)!,
    created_by: users.get(r.created_by)!,
    notes: r.notes,
    item_name: r.item_name,
    invoice_number: r.invoice_number,
    requisition_number: r.requisition_number,
    confirmation_number: r.confirmation_number,
    tracking_number: r.tracking_number,
    purchase_order_number: r.purchase_order_number,
    shipping_and_handling: r.shipping_and_handling,
    details: r.details,
    lab,
    type,
    spend_tracking_code: r.spend_tracking_code ? { name: r.spend_tracking_code } : null,
    backordered_expected_at: r.backordered_expected_at,
    is_urgent: r.is_urgent === 1,
    app_url: orderAppUrl(appUrl, r.id),
  };
}

export async function renderOrder(ex: Executor, appUrl: string, row: OrderRow): Promise<OrderRequest> {
  return (await renderOrders(ex, appUrl, [row]))[0]!;
}

/**
 * A request's history, oldest first, each entry with who made it (only the newest `limit` entries when given);
 * `alsoUsers` are read in the same statement.
 */
async function historyWithUsers(ex: Executor, orderId: string, alsoUsers: string[] = [], limit?: number) {
  const history = limit === undefined ? await historyOf(ex, orderId) : await recentHistoryOf(ex, orderId, limit);
  const users = await userSummaries(ex, [...alsoUsers, ...history.map((h) => h.created_by)]);
  const events = history.map((h) => ({ type: h.type, comment: h.comment, created_at: h.created_at, created_by: users.get(h.created_by)! }));
  return { events, users };
}

/** GET /order-requests/{id}/history: every entry, in the shape of the events' `events`, without rendering the request. */
export async function renderHistory(ex: Executor, orderId: string): Promise<OrderRequestWithHistory['events']> {
  return (await historyWithUsers(ex, orderId)).events;
}

/**
 * The ordered and updated events' shape: the request plus the newest EVENT_HISTORY_LIMIT entries of its history
 * and who changed it last.
 */
export async function renderOrderWithHistory(ex: Executor, appUrl: string, row: OrderRow): Promise<OrderRequestWithHistory> {
  const [order, { events, users }] = await Promise.all([
    renderOrder(ex, appUrl, row),
    historyWithUsers(ex, row.id, [row.updated_by], EVENT_HISTORY_LIMIT),
  ]);
  return { ...order, events, updated_by: users.get(row.updated_by)! };
}

/**
 * The same from what a status change has read already (src/order-requests/write-repository.ts findTransitionContext;
 * `users` holds whoever changed it last): one statement, for the history with who made each entry.
 */
export async function renderOrderWithHistoryFrom(
  ex: Executor,
  appUrl: string,
  row: OrderRow,
  known: { lab: Lab; users: Map<string, UserSummary>; type: TypeRef },
): Promise<OrderRequestWithHistory> {
  const order = renderOrderFrom(appUrl, row, known.lab, known.users, known.type);
  const history = await recentHistoryWithUsersOf(ex, row.id, EVENT_HISTORY_LIMIT);
  const events = history.map((h) => ({
    type: h.type,
    comment: h.comment,
    created_at: h.created_at,
    // The keys in the order a rendered UserSummary has them (src/accounts/repository.ts userSummaries).
    created_by: { id: h.created_by, first_name: h.first_name, last_name: h.last_name, email: h.email },
  }));
  return { ...order, events, updated_by: known.users.get(row.updated_by)! };
}
