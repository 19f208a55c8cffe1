// The order request's transition table (docs/product.md §4, src/order-requests/rules.ts): the buttons a request
// shows are the moves the server allows, so a person never meets a 409 for a button that should not be there.
export type OrderStatus = 'CREATED' | 'CANCELLED' | 'APPROVED' | 'ORDERED' | 'BACKORDERED' | 'RECEIVED';

export const STATUSES: OrderStatus[] = ['CREATED', 'APPROVED', 'ORDERED', 'BACKORDERED', 'RECEIVED', 'CANCELLED'];

export const NEXT: Record<OrderStatus, OrderStatus[]> = {
  CREATED: ['APPROVED', 'ORDERED', 'CANCELLED'],
  APPROVED: ['ORDERED', 'CANCELLED'],
  ORDERED: ['BACKORDERED', 'RECEIVED', 'CANCELLED'],
  BACKORDERED: ['ORDERED', 'RECEIVED', 'CANCELLED'],
  CANCELLED: ['CREATED'],
  RECEIVED: [],
};

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
