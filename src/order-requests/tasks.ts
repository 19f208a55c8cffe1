import { effectiveLabRole } from '../labs/approval-settings.js';
import { type Actor, isOrgAdmin } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, notFound, validation } from '../shared/errors.js';
import { applyDetailsIn, checkedDate } from './details.js';
import type { DetailColumns } from './details-repository.js';
import type { MarkOrderedBody, RejectBody } from './receipts-schemas.js';
import { renderOrder } from './render.js';
import * as repo from './repository.js';
import { checkApprover, TRANSITIONS } from './rules.js';
import type { OrderRequest } from './schemas.js';
import { refuseIfInShop, transitionIn } from './service.js';

// The ordering tasks as labs do them, each one request (docs/ordering.md "Ordering, receiving in parts"): marking a
// request ordered with what the vendor answered, and rejecting one with a reason. Both are a status move of the
// contract's table plus what a person types, in one transaction, and answer the order request.

/** The comment a rejection leaves on its CANCELLED history entry: the reason, after this prefix. */
export const REJECTED_PREFIX = 'Rejected: ';

/**
 * POST /order-requests/{id}/order: sets the PO and confirmation numbers and the expected delivery date (one UPDATED
 * entry and order-request.updated, when any changes), then moves the request to ORDERED as PUT does (its refusals,
 * its history entry and its ordered event, which so carries the numbers). Already ORDERED: only the details change.
 */
export async function markOrdered(deps: ServiceDeps, actor: Actor, id: string, body: MarkOrderedBody): Promise<OrderRequest> {
  const changes: DetailColumns = {};
  if (body.purchase_order_number?.trim()) changes.purchase_order_number = body.purchase_order_number.trim();
  if (body.confirmation_number?.trim()) changes.confirmation_number = body.confirmation_number.trim();
  if (body.expected_delivery_date !== undefined) changes.expected_delivery_date = checkedDate(body.expected_delivery_date);
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.findVisibleOrderForUpdate(trx, actor, id);
    if (!row) throw notFound('order request');
    if (row.status !== 'ORDERED') refuseIfInShop(row);
    const detailed = await applyDetailsIn(trx, deps, actor, row, changes);
    const updated = await transitionIn(trx, deps, actor, detailed, 'ORDERED');
    return renderOrder(trx, deps.config.appUrl, updated);
  });
}

/**
 * POST /order-requests/{id}/reject {reason}: CANCELLED before it is ordered, by someone who may approve it (the lab's
 * approvers and managers, organization admins) other than its requester, who cancels their own instead. The reason is
 * the CANCELLED entry's comment, after REJECTED_PREFIX.
 */
export async function rejectOrder(deps: ServiceDeps, actor: Actor, id: string, body: RejectBody): Promise<OrderRequest> {
  const reason = body.reason.trim();
  if (reason === '') throw validation([{ field: 'reason', message: 'say why it is rejected' }]);
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.findVisibleOrderForUpdate(trx, actor, id);
    if (!row) throw notFound('order request');
    const verdict = checkApprover(
      { userId: actor.userId, orgAdmin: isOrgAdmin(actor), labRole: await effectiveLabRole(trx, actor, row.lab_id) },
      row.requested_by,
    );
    if (verdict === 'self') throw new AppError('self_approval', 'Your own request is not yours to reject: cancel it instead');
    if (verdict === 'not_an_approver')
      throw new AppError('forbidden', "Only the lab's approvers and managers (and organization admins) reject order requests");
    if (row.status !== 'CREATED' && row.status !== 'APPROVED') {
      throw new AppError('invalid_transition', `A request is rejected before it is ordered; this one is ${row.status}`, {
        extra: { allowed: [...TRANSITIONS[row.status]] },
      });
    }
    refuseIfInShop(row);
    const updated = await transitionIn(trx, deps, actor, row, 'CANCELLED', { comment: `${REJECTED_PREFIX}${reason}` });
    return renderOrder(trx, deps.config.appUrl, updated);
  });
}
