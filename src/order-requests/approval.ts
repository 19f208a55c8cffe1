import { activeLabApprovers, approvableLabIds, approvalRulesOf, findApprovalRule } from '../labs/approval-repository.js';
import { effectiveLabRole } from '../labs/approval-settings.js';
import { type Actor, isOrgAdmin, type OperatorActor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { OrderStatus } from '../shared/db/schema.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import { nowIso } from '../shared/time.js';
import { createdRequestsOf, insertApprovalNotices } from './approval-repository.js';
import { renderOrders } from './render.js';
import type { OrderRow } from './repository.js';
import { type ApprovalRule, checkApprover, needsApproval } from './rules.js';

// Approvals (docs/ordering.md, docs/product.md §13). A lab without a rule (or with 'none') behaves exactly as before:
// every check here returns before changing anything. The same guard runs for PUT /order-requests/{id} and the shop's
// checkout, as both move a request through transitionIn (src/order-requests/service.ts).

/**
 * Refuses, under the lab's rule, ordering a CREATED request that needs approval (409 approval_required) and an
 * approval by anyone but an approver, manager or org admin other than the requester (403 self_approval / forbidden).
 * Called with the request row locked, so the rule it reads is the one the transition commits under (`known`: the
 * rule read with the row, src/order-requests/write-repository.ts findTransitionContext).
 */
export async function guardApproval(
  ex: Executor,
  by: Actor | OperatorActor,
  row: OrderRow,
  to: OrderStatus,
  known?: { rule: ApprovalRule | undefined },
): Promise<void> {
  const ordering = to === 'ORDERED' && row.status === 'CREATED';
  if (!ordering && to !== 'APPROVED') return;
  const rule = known ? known.rule : await findApprovalRule(ex, row.lab_id);
  if (!rule || rule.rule === 'none') return;
  if (ordering) {
    if (needsApproval(rule, row)) {
      throw new AppError(
        'approval_required',
        `Order request ${row.id} needs approval under its lab's rule: it must be APPROVED before it is ORDERED`,
        {
          extra: { allowed: ['APPROVED', 'CANCELLED'] },
        },
      );
    }
    return;
  }
  if ('kind' in by) throw new AppError('forbidden', 'Service operators do not approve order requests');
  const verdict = checkApprover(
    { userId: by.userId, orgAdmin: isOrgAdmin(by), labRole: await effectiveLabRole(ex, by, row.lab_id) },
    row.requested_by,
  );
  if (verdict === 'self') throw new AppError('self_approval', 'An order request is approved by someone other than its requester');
  if (verdict === 'not_an_approver')
    throw new AppError('forbidden', "Only the lab's approvers and managers (and organization admins) approve order requests");
}

/**
 * In the transaction that creates a request, after its row: when it needs approval under `rule` (the lab's, read by
 * the caller; undefined without one), one notice per approver and manager of the lab (the requester aside), mailed by
 * the worker (src/order-requests/approval-mail.ts), so none is lost if the process dies before sending.
 */
export async function queueApprovalMail(ex: Executor, row: OrderRow, rule: ApprovalRule | undefined): Promise<void> {
  if (!needsApproval(rule, row)) return;
  const approvers = (await activeLabApprovers(ex, row.lab_id)).filter((a) => a.user_id !== row.requested_by);
  const now = nowIso();
  await insertApprovalNotices(
    ex,
    approvers.map((a) => ({ id: newId(), order_request_id: row.id, user_id: a.user_id, created_at: now, lease_until: null })),
  );
}

/**
 * GET /order-requests/awaiting-approval: CREATED requests the caller may approve and that need approval under their
 * lab's current rule, oldest first. The rule is applied here (an amount in text cannot be compared in SQL on both
 * databases), so the page is cut after filtering.
 */
export async function listAwaitingMyApproval(deps: ServiceDeps, actor: Actor, filter: { labId?: string }, page: Page) {
  const rules = await approvalRulesOf(deps.db, await approvableLabIds(deps.db, actor));
  // Only labs with a rule can have a request waiting: the others' CREATED requests are never read.
  const ruled = [...rules.values()].filter((r) => r.rule !== 'none').map((r) => r.lab_id);
  const rows = ruled.length === 0 ? [] : await createdRequestsOf(deps.db, ruled, actor.userId, filter.labId);
  const waiting = rows.filter((r) => needsApproval(rules.get(r.lab_id), r));
  const slice = waiting.slice(page.offset, page.offset + page.perPage);
  return { total: waiting.length, orders: await renderOrders(deps.db, deps.config.appUrl, slice) };
}
