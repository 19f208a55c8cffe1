import type { OrderStatus } from '../shared/db/schema.js';

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
