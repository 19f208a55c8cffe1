import { emitEvent } from '../events/outbox.js';
import { findLabRow } from '../labs/repository.js';
import { type Actor, isOrgAdmin, type OperatorActor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { OrderStatus } from '../shared/db/schema.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import { nowIso } from '../shared/time.js';
import { guardApproval } from './approval.js';
import { setOrderedAt } from './details-repository.js';
import { enforceApprovalPlacement } from './placement.js';
import { receiptsOf } from './receipts-repository.js';
import { type ReceiveDetails, receiveIn, remainingOf } from './receive-in.js';
import { renderOrder, renderOrders, renderOrderWithHistory } from './render.js';
import * as repo from './repository.js';
import { checkTransition, emitsOrdered } from './rules.js';
import type { OrderRequest } from './schemas.js';
import { checkBudgetIn } from './spend-codes.js';

export { type CreateOrderInput, createOrder } from './create.js';

export async function listOrders(deps: ServiceDeps, actor: Actor, filter: repo.OrderFilter, page: Page) {
  const { total, rows } = await repo.listVisibleOrders(deps.db, actor, filter, page);
  return { total, orders: await renderOrders(deps.db, deps.config.appUrl, rows) };
}

export async function getOrder(deps: ServiceDeps, actor: Actor, id: string): Promise<OrderRequest> {
  const row = await repo.findVisibleOrder(deps.db, actor, id);
  if (!row) throw notFound('order request');
  return renderOrder(deps.db, deps.config.appUrl, row);
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
