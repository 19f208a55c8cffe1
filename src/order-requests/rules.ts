import type { OrderStatus } from '../shared/db/schema.js';
import { dec } from '../shared/decimal.js';

// docs/product.md §4. Anything not listed is refused with 409 invalid_transition naming the allowed targets.
export const TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  CREATED: ['APPROVED', 'ORDERED', 'CANCELLED'],
  APPROVED: ['ORDERED', 'CANCELLED'],
  ORDERED: ['BACKORDERED', 'RECEIVED', 'CANCELLED'],
  BACKORDERED: ['ORDERED', 'RECEIVED', 'CANCELLED'],
  CANCELLED: ['CREATED'],
  RECEIVED: [],
};

export type TransitionCheck = { kind: 'same' } | { kind: 'allowed' } | { kind: 'refused'; allowed: readonly OrderStatus[] };

export function checkTransition(from: OrderStatus, to: OrderStatus): TransitionCheck {
  if (from === to) return { kind: 'same' };
  return TRANSITIONS[from].includes(to) ? { kind: 'allowed' } : { kind: 'refused', allowed: TRANSITIONS[from] };
}

/** The ordered event fires when a request is first ordered, not when a backorder is re-ordered. */
export const emitsOrdered = (from: OrderStatus, to: OrderStatus): boolean =>
  to === 'ORDERED' && (from === 'CREATED' || from === 'APPROVED');

// Approvals (docs/ordering.md, docs/product.md §13).

export interface ApprovalRule {
  rule: 'none' | 'all' | 'above';
  /** For 'above': major units ("250.00") and currency. */
  threshold_amount: string | null;
  threshold_currency: string | null;
}

/**
 * Whether a request must be APPROVED before it is ORDERED under its lab's rule (undefined: no rule, as 'none').
 * 'above' compares the total (unit price × quantity) with the threshold, strictly; a request priced in another
 * currency than the threshold needs approval, as there is no exchange rate to compare with.
 */
export function needsApproval(
  rule: ApprovalRule | undefined,
  order: { unit_price: string; quantity: string | number; currency: string },
): boolean {
  if (!rule || rule.rule === 'none') return false;
  if (rule.rule === 'all') return true;
  if (rule.threshold_amount === null || rule.threshold_currency === null) return true;
  if (order.currency !== rule.threshold_currency) return true;
  return dec(order.unit_price).mul(order.quantity).greaterThan(rule.threshold_amount);
}

export type ApproverCheck = 'allowed' | 'self' | 'not_an_approver';

/** Only an approver or manager of the lab (org admins act as managers) other than the requester approves. */
export function checkApprover(who: { userId: string; orgAdmin: boolean; labRole: string | null }, requestedBy: string): ApproverCheck {
  if (who.userId === requestedBy) return 'self';
  if (who.orgAdmin || who.labRole === 'approver' || who.labRole === 'manager') return 'allowed';
  return 'not_an_approver';
}
