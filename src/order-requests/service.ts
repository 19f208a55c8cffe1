import type { UserSummary } from '../accounts/schemas.js';
import { subscribersFromJson } from '../delivery/webhook-repository.js';
import { emitEvent, emitEventWith } from '../events/outbox.js';
import { findLabRow, toLab } from '../labs/repository.js';
import type { Lab } from '../labs/schemas.js';
import { type Actor, isOrgAdmin, type OperatorActor } from '../shared/actor.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import { runWrites } from '../shared/db/precompiled.js';
import type { OrderStatus } from '../shared/db/schema.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import { nowIso } from '../shared/time.js';
import type { TypeRef } from '../types/schemas.js';
import { guardApproval } from './approval.js';
import { enforceApprovalPlacement } from './placement.js';
import { receiptsOf } from './receipts-repository.js';
import { type ReceiveDetails, receiveIn, remainingOf } from './receive-in.js';
import { renderOrder, renderOrderFrom, renderOrders, renderOrderWithHistory, renderOrderWithHistoryFrom } from './render.js';
import * as repo from './repository.js';
import { type ApprovalRule, checkTransition, emitsOrdered } from './rules.js';
import type { OrderRequest } from './schemas.js';
import { checkBudgetIn } from './spend-codes.js';
import { findTransitionContext, historyInsertQuery, orderRowOf, statusUpdateQuery } from './write-repository.js';

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

/** What a status change has read already with its row (findTransitionContext), so it reads none of it again. */
export interface TransitionKnown {
  lab: Lab;
  /** The requester, the creator and the one who moves it, by id. */
  users: Map<string, UserSummary>;
  type: TypeRef;
  subscribers: ReturnType<typeof subscribersFromJson>;
  /**
   * The lab's approval rule (undefined without one), when read under the write lock: on SQLite, whose BEGIN
   * IMMEDIATE takes it before the read. PostgreSQL reads the rule again once the request's row is locked (a row read
   * beside a locked one keeps the snapshot the statement started with, from before any wait for the lock).
   */
  approval?: { rule: ApprovalRule | undefined };
}

/**
 * Moves a request to a new status inside the caller's transaction: checks the table, records history, emits
 * ordered/received, and on RECEIVED adds the goods to inventory (all or nothing with the status change). The
 * caller has already found the row visible to `by` (a tenant's Actor, or the operator fulfilling its shop line),
 * who is recorded as the one who moved it; `known`, what it read with it (PUT /order-requests/{id}).
 */
export async function transitionIn(
  trx: Executor,
  deps: ServiceDeps,
  by: Actor | OperatorActor,
  row: repo.OrderRow,
  to: OrderStatus,
  opts: { comment?: string | null; receive?: ReceiveDetails; known?: TransitionKnown } = {},
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
  await guardApproval(trx, by, row, to, opts.known?.approval);
  if (to === 'APPROVED') await enforceApprovalPlacement(trx, row);
  const now = nowIso();
  // Entering ORDERED dates the request's spend (docs/ordering.md) in the same update.
  const ordered = emitsOrdered(row.status, to);
  const historyId = newId();
  // The history row, then the status only if it is still the one read (a conflict rolls the history row back too).
  const [updated] = (
    await runWrites<repo.OrderRow>(trx, [
      historyInsertQuery(trx, {
        id: historyId,
        order_request_id: row.id,
        type: to,
        comment: opts.comment ?? null,
        created_by: userId,
        created_at: now,
      }),
      statusUpdateQuery(trx, row.id, row.status, to, userId, now, ordered),
    ])
  ).rows;
  if (!updated) throw new AppError('conflict', 'The order request changed at the same time; fetch it again and retry');
  // Its code's budget (409 rolls it all back).
  if (ordered) await checkBudgetIn(trx, by, updated, now);
  if (!ordered && to !== 'RECEIVED') return updated;
  const { known } = opts;
  const organizationId = known ? known.lab.organization.id : (await findLabRow(trx, row.lab_id))!.organization_id;
  const emit = (type: 'order-request.ordered' | 'order-request.received', resource: unknown) =>
    known
      ? emitEventWith(trx, deps.config, { type, organizationId, labId: row.lab_id, resource }, known.subscribers, [])
      : emitEvent(trx, deps.config, { type, organizationId, labId: row.lab_id, resource });
  if (ordered) {
    await emit(
      'order-request.ordered',
      known
        ? await renderOrderWithHistoryFrom(trx, deps.config.appUrl, updated, known)
        : await renderOrderWithHistory(trx, deps.config.appUrl, updated),
    );
  }
  if (to === 'RECEIVED') {
    // What is still to come: all of it, unless parts were received before (src/order-requests/receipts.ts).
    await receiveIn(trx, deps, userId, row, { quantity: await remainingOf(trx, row), historyId, at: now, ...opts.receive });
    await emit(
      'order-request.received',
      known
        ? renderOrderFrom(deps.config.appUrl, updated, known.lab, known.users, known.type)
        : await renderOrder(trx, deps.config.appUrl, updated),
    );
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
    const found = await findTransitionContext(trx, actor, id, deps.config.webhookRequireVerification, body.status !== undefined);
    if (!found) throw notFound('order request');
    const row = orderRowOf(found);
    const summary = (id: string, p: 'requester' | 'creator' | 'me') => ({
      id,
      first_name: found[`${p}_first_name`],
      last_name: found[`${p}_last_name`],
      email: found[`${p}_email`],
    });
    const known: TransitionKnown = {
      lab: toLab({
        id: row.lab_id,
        name: found.lab_name,
        uses_instances: found.lab_uses_instances,
        organization_id: found.lab_organization_id,
        organization_name: found.organization_name,
      }),
      // The keys in the order a rendered UserSummary has them (src/accounts/repository.ts userSummaries).
      users: new Map([
        [row.requested_by, summary(row.requested_by, 'requester')],
        [row.created_by, summary(row.created_by, 'creator')],
        [actor.userId, summary(actor.userId, 'me')],
      ]),
      type: { id: row.type_id, name: found.type_name },
      subscribers: subscribersFromJson(found.subscribers),
    };
    if (!isPostgres(trx)) {
      known.approval = {
        rule:
          found.approval_rule === null
            ? undefined
            : {
                rule: found.approval_rule,
                threshold_amount: found.approval_threshold_amount,
                threshold_currency: found.approval_threshold_currency,
              },
      };
    }
    if (body.status !== undefined && body.status !== row.status) refuseIfInShop(row);
    const updated = body.status === undefined ? row : await transitionIn(trx, deps, actor, row, body.status, { known });
    return renderOrderFrom(deps.config.appUrl, updated, known.lab, known.users, known.type);
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
