// The order request's transition table (docs/product.md §4, src/order-requests/rules.ts): the buttons a request
// shows are the moves the server allows, so a person never meets a 409 for a button that should not be there.
export type OrderStatus = 'CREATED' | 'CANCELLED' | 'APPROVED' | 'ORDERED' | 'BACKORDERED' | 'RECEIVED';

export const STATUSES: OrderStatus[] = ['CREATED', 'APPROVED', 'ORDERED', 'BACKORDERED', 'RECEIVED', 'CANCELLED'];

/** The statuses of a request still on its way (the requests list's "Open", the home's counts). */
export const OPEN_STATUSES = ['CREATED', 'APPROVED', 'ORDERED', 'BACKORDERED'] as const satisfies readonly OrderStatus[];

export const NEXT: Record<OrderStatus, OrderStatus[]> = {
  CREATED: ['APPROVED', 'ORDERED', 'CANCELLED'],
  APPROVED: ['ORDERED', 'CANCELLED'],
  ORDERED: ['BACKORDERED', 'RECEIVED', 'CANCELLED'],
  BACKORDERED: ['ORDERED', 'RECEIVED', 'CANCELLED'],
  CANCELLED: ['CREATED'],
  RECEIVED: [],
};

/** A status as people say it: "Ordered", not ORDERED (docs/web.md, "Their words"). */
export const STATUS_LABEL: Record<OrderStatus, string> = {
  CREATED: 'Created',
  APPROVED: 'Approved',
  ORDERED: 'Ordered',
  BACKORDERED: 'Backordered',
  RECEIVED: 'Received',
  CANCELLED: 'Cancelled',
};

/** Any status the server sends, in words; one it does not know yet is still shown, not as capitals. */
export function statusLabel(status: string): string {
  if (status in STATUS_LABEL) return STATUS_LABEL[status as OrderStatus];
  const words = status.toLowerCase().replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The button that moves a request to `status`. */
export const ACTION: Record<OrderStatus, string> = {
  CREATED: 'Reopen',
  APPROVED: 'Approve',
  ORDERED: 'Mark ordered',
  BACKORDERED: 'Mark backordered',
  RECEIVED: 'Receive',
  CANCELLED: 'Cancel',
};

export const STATUS_COLOR: Record<OrderStatus, string> = {
  CREATED: 'gray',
  APPROVED: 'blue',
  ORDERED: 'indigo',
  BACKORDERED: 'orange',
  RECEIVED: 'green',
  CANCELLED: 'red',
};

// Approvals (docs/ordering.md), mirroring src/order-requests/rules.ts so the page offers only what the server allows;
// the server stays the guard (409 approval_required, 403 self_approval).
export type ApprovalSettings = {
  rule: 'none' | 'all' | 'above';
  threshold: { amount: string; currency: string } | null;
  my_role: 'member' | 'approver' | 'manager' | null;
};

/** Whether the lab's rule asks for approval before ordering: `all`, or a total strictly above the threshold (another currency: yes). */
export function needsApproval(settings: ApprovalSettings, total: { amount: string; currency: string }): boolean {
  if (settings.rule === 'none') return false;
  if (settings.rule === 'all' || settings.threshold === null) return true;
  if (total.currency !== settings.threshold.currency) return true;
  // Both in minor units of one currency (docs/ordering.md): whole numbers compare exactly as BigInt.
  const [a, b] = [total.amount, settings.threshold.amount];
  return /^\d+$/.test(a) && /^\d+$/.test(b) ? BigInt(a) > BigInt(b) : Number(a) > Number(b);
}

/** Approvers and managers (org admins are answered as managers) approve, never their own request. */
export function mayApprove(settings: ApprovalSettings, me: string, requester: string): boolean {
  return me !== requester && (settings.my_role === 'approver' || settings.my_role === 'manager');
}
