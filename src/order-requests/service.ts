import { findVendorProduct } from '../catalogue/repository.js';
import { emitEvent } from '../events/outbox.js';
import { findLabRow, findVisibleLab } from '../labs/repository.js';
import { type Actor, isOrgAdmin, type OperatorActor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { OrderStatus } from '../shared/db/schema.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, type FieldError, notFound, validation } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { formatMajor, isCurrency, parseMoneyAmount } from '../shared/money.js';
import type { Page } from '../shared/pagination.js';
import { isDate, nowIso } from '../shared/time.js';
import { findTypeInLab } from '../types/repository.js';
import { guardApproval, queueApprovalMail } from './approval.js';
import { setOrderedAt } from './details-repository.js';
import { enforceApprovalPlacement } from './placement.js';
import { receiptsOf } from './receipts-repository.js';
import { type ReceiveDetails, receiveIn, remainingOf } from './receive-in.js';
import { renderOrder, renderOrders, renderOrderWithHistory } from './render.js';
import * as repo from './repository.js';
import { checkTransition, emitsOrdered } from './rules.js';
import type { OrderRequest, OrderRequestCreate } from './schemas.js';
import { checkBudgetIn, resolveSpendCodeIn } from './spend-codes.js';

export type CreateOrderInput = OrderRequestCreate;

export async function listOrders(deps: ServiceDeps, actor: Actor, filter: repo.OrderFilter, page: Page) {
  const { total, rows } = await repo.listVisibleOrders(deps.db, actor, filter, page);
  return { total, orders: await renderOrders(deps.db, deps.config.appUrl, rows) };
}

export async function getOrder(deps: ServiceDeps, actor: Actor, id: string): Promise<OrderRequest> {
  const row = await repo.findVisibleOrder(deps.db, actor, id);
  if (!row) throw notFound('order request');
  return renderOrder(deps.db, deps.config.appUrl, row);
}

function checkCreateInput(input: CreateOrderInput): { unitPrice: string } {
  const errors: FieldError[] = [];
  for (const field of ['name', 'vendor_name', 'catalog_number'] as const) {
    if (input[field].trim() === '') errors.push({ field, message: 'must not be empty' });
  }
  let unitPrice = '';
  if (!isCurrency(input.price.currency)) {
    errors.push({ field: 'price.currency', message: `"${input.price.currency}" is not an ISO 4217 currency code` });
  } else {
    const parsed = parseMoneyAmount(input.price.amount, input.price.currency);
    if ('error' in parsed) errors.push({ field: 'price.amount', message: parsed.error });
    else unitPrice = formatMajor(parsed.major, input.price.currency);
  }
  if (input.required_before !== undefined && !isDate(input.required_before)) {
    errors.push({ field: 'required_before', message: 'must be a calendar date (YYYY-MM-DD)' });
  }
  if (errors.length > 0) throw validation(errors);
  return { unitPrice };
}

/** `unitSize`: what a reorder copies from the item (POST /order-requests takes no unit_size: it is a detail, PATCHed). */
export async function createOrder(
  deps: ServiceDeps,
  actor: Actor,
  input: CreateOrderInput,
  from: { unitSize?: string | null } = {},
): Promise<OrderRequest> {
  const { unitPrice } = checkCreateInput(input);
  return deps.db.transaction().execute(async (trx) => {
    const lab = await findVisibleLab(trx, actor, input.lab_id);
    if (!lab) throw notFound('lab');
    if (!(await findTypeInLab(trx, lab.id, input.type_id))) throw notFound('type in that lab');
    if (input.vendor_product_id !== undefined) {
      if (!(await findVendorProduct(trx, input.vendor_product_id))) throw notFound('vendor product');
    }
    const spendCode = await resolveSpendCodeIn(trx, lab.id, input.spend_tracking_code ?? null, input.price.currency);
    const now = nowIso();
    const row: repo.OrderRow = {
      id: newId(),
      lab_id: lab.id,
      type_id: input.type_id,
      status: 'CREATED',
      item_name: input.name.trim(),
      vendor_name: input.vendor_name.trim(),
      catalog_number: input.catalog_number.trim(),
      vendor_product_id: input.vendor_product_id ?? null,
      quantity: String(input.quantity),
      unit_size: from.unitSize?.trim() || null,
      unit_price: unitPrice,
      currency: input.price.currency,
      notes: input.notes ?? null,
      required_before: input.required_before ?? null,
      invoice_number: null,
      requisition_number: null,
      confirmation_number: null,
      tracking_number: null,
      purchase_order_number: null,
      shipping_and_handling: null,
      details: null,
      spend_tracking_code: spendCode,
      backordered_expected_at: null,
      checked_out_line_id: null,
      ordered_at: null,
      is_urgent: 0,
      requested_by: actor.userId,
      created_by: actor.userId,
      updated_by: actor.userId,
      requested_at: now,
      updated_at: now,
      created_at: now,
    };
    await repo.insertOrder(trx, row);
    await repo.insertHistory(trx, {
      id: newId(),
      order_request_id: row.id,
      type: 'CREATED',
      comment: null,
      created_by: actor.userId,
      created_at: now,
    });
    await queueApprovalMail(trx, row);
    const order = await renderOrder(trx, deps.config.appUrl, row);
    await emitEvent(trx, deps.config, {
      type: 'order-request.created',
      organizationId: lab.organization.id,
      labId: lab.id,
      resource: order,
    });
    return order;
  });
}

/**
 * Moves a request to a new status inside the caller's transaction: checks the table, records history, emits
 * ordered/received, and on RECEIVED adds the goods to inventory (all or nothing with the status change). The
 * caller has already found the row visible to `by` (a tenant's Actor, or the operator fulfilling its shop line),
 * who is recorded as the one who moved it.
 */
export async function transitionIn(
  trx: Executor,
  deps: ServiceDeps,
  by: Actor | OperatorActor,
  row: repo.OrderRow,
  to: OrderStatus,
  opts: { comment?: string | null; receive?: ReceiveDetails } = {},
): Promise<repo.OrderRow> {
  const userId = by.userId;
  const check = checkTransition(row.status, to);
  if (check.kind === 'same') return row;
  if (check.kind === 'refused') {
    const allowed = check.allowed.length ? check.allowed.join(', ') : 'none (RECEIVED is final)';
    throw new AppError('invalid_transition', `An order request cannot go from ${row.status} to ${to}; allowed: ${allowed}`, {
      extra: { allowed: [...check.allowed] },
    });
  }
  await guardApproval(trx, by, row, to);
  if (to === 'APPROVED') await enforceApprovalPlacement(trx, row);
  const now = nowIso();
  if (!(await repo.setStatus(trx, row.id, row.status, to, userId, now))) {
    throw new AppError('conflict', 'The order request changed at the same time; fetch it again and retry');
  }
  const historyId = newId();
  await repo.insertHistory(trx, {
    id: historyId,
    order_request_id: row.id,
    type: to,
    comment: opts.comment ?? null,
    created_by: userId,
    created_at: now,
  });
  // Entering ORDERED dates the request's spend and checks its code's budget (docs/ordering.md; 409 rolls it all back).
  if (emitsOrdered(row.status, to)) await setOrderedAt(trx, row.id, now);
  const updated = (await repo.findOrder(trx, row.id))!;
  if (emitsOrdered(row.status, to)) await checkBudgetIn(trx, by, updated, now);
  const lab = (await findLabRow(trx, row.lab_id))!;
  if (emitsOrdered(row.status, to)) {
    const payload = await renderOrderWithHistory(trx, deps.config.appUrl, updated);
    await emitEvent(trx, deps.config, {
      type: 'order-request.ordered',
      organizationId: lab.organization_id,
      labId: lab.id,
      resource: payload,
    });
  }
  if (to === 'RECEIVED') {
    // What is still to come: all of it, unless parts were received before (src/order-requests/receipts.ts).
    await receiveIn(trx, deps, userId, row, { quantity: await remainingOf(trx, row), historyId, at: now, ...opts.receive });
    const payload = await renderOrder(trx, deps.config.appUrl, updated);
    await emitEvent(trx, deps.config, {
      type: 'order-request.received',
      organizationId: lab.organization_id,
      labId: lab.id,
      resource: payload,
    });
  }
  return updated;
}

/**
 * A request checked out in the shop follows its line (shipped, backordered, delivered, cancelled by operators);
 * letting the lab move it too would let the two disagree, e.g. goods received twice. The checkout marks the
 * request itself (docs/decisions/0008-shop-and-order-requests.md), so this reads no table of the shop.
 */
export function refuseIfInShop(row: repo.OrderRow): void {
  if (row.checked_out_line_id !== null) {
    throw new AppError(
      'conflict',
      `The order request was checked out in the shop (line ${row.checked_out_line_id}); its status follows the shop order`,
    );
  }
}

export async function updateOrder(deps: ServiceDeps, actor: Actor, id: string, body: { status?: OrderStatus }): Promise<OrderRequest> {
  return deps.db.transaction().execute(async (trx) => {
    // Locked when the status may change, so identical concurrent PUTs find it set by the first (200, no change).
    const row =
      body.status === undefined ? await repo.findVisibleOrder(trx, actor, id) : await repo.findVisibleOrderForUpdate(trx, actor, id);
    if (!row) throw notFound('order request');
    if (body.status !== undefined && body.status !== row.status) refuseIfInShop(row);
    const updated = body.status === undefined ? row : await transitionIn(trx, deps, actor, row, body.status);
    return renderOrder(trx, deps.config.appUrl, updated);
  });
}

/** DELETE /order-requests/{id}: by its requester or an org admin, never once received; emits order-request.deleted. */
export async function deleteOrder(deps: ServiceDeps, actor: Actor, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    // Locked, so a receive committing meanwhile is seen (a received request is never deleted).
    const row = await repo.findVisibleOrderForUpdate(trx, actor, id);
    if (!row) throw notFound('order request');
    if (row.requested_by !== actor.userId && !isOrgAdmin(actor)) {
      throw new AppError('forbidden', 'Only the requester or an organization admin may delete an order request');
    }
    if (row.status === 'RECEIVED')
      throw new AppError('conflict', "A received order request is part of the inventory's history and cannot be deleted");
    if ((await receiptsOf(trx, row.id)).length > 0)
      throw new AppError(
        'conflict',
        "Part of this order request was received: it is part of the inventory's history and cannot be deleted",
      );
    if (row.checked_out_line_id !== null)
      throw new AppError('conflict', 'The order request was checked out in the shop; cancel its line there instead');
    const last = await renderOrder(trx, deps.config.appUrl, row);
    // A concurrent delete got there first: it emitted the event; this one found nothing.
    if (!(await repo.deleteOrderWithHistory(trx, row.id))) throw notFound('order request');
    const lab = (await findLabRow(trx, row.lab_id))!;
    await emitEvent(trx, deps.config, {
      type: 'order-request.deleted',
      organizationId: lab.organization_id,
      labId: lab.id,
      resource: last,
    });
  });
}
