import type { components } from '@labstock/client';

// What the shop pages share: a line's statuses and colours, and the moves an operator may make on a line, mirroring
// src/shop/rules.ts (refuseShipment, refuseBackorder, refuseCancel) so a button is only there when the server allows it.

export type LineStatus = components['schemas']['SalesOrderItem']['status'];
export type FulfilmentLine = components['schemas']['FulfilmentLine'];
export type SalesOrder = components['schemas']['SalesOrder'];

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const LINE_STATUSES: LineStatus[] = ['PLACED', 'BACKORDERED', 'INDEFINITELY_BACKORDERED', 'SHIPPED', 'DELIVERED', 'CANCELLED'];

/** Lines an operator still has work on (the fulfilment queue's default). */
export const OPEN_LINE_STATUSES: LineStatus[] = ['PLACED', 'BACKORDERED', 'INDEFINITELY_BACKORDERED', 'SHIPPED'];

export const LINE_COLOR: Record<LineStatus, string> = {
  PLACED: 'indigo',
  BACKORDERED: 'orange',
  INDEFINITELY_BACKORDERED: 'orange',
  SHIPPED: 'cyan',
  DELIVERED: 'green',
  CANCELLED: 'red',
};

/** A status as people read it ("INDEFINITELY_BACKORDERED" → "indefinitely backordered"). */
export const lineStatusLabel = (status: LineStatus): string => status.toLowerCase().replaceAll('_', ' ');
/** The same with a capital first letter, for a badge that stands alone ("Awaiting shipment"). */
export const lineStatusTitle = (status: LineStatus): string => {
  const words = lineStatusLabel(status);
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const closed = (line: { status: LineStatus }) => line.status === 'DELIVERED' || line.status === 'CANCELLED';

export const canShip = (line: FulfilmentLine): boolean => !closed(line) && line.shipped < line.quantity;
export const canBackorder = (line: FulfilmentLine): boolean => !closed(line) && line.shipped < line.quantity;
export const canCancel = (line: FulfilmentLine): boolean => !closed(line) && line.shipped === 0;

/** A date-time from the API in the browser's locale; dates (YYYY-MM-DD) are shown as they are. */
export const formatDateTime = (value: string | null): string | null => (value ? new Date(value).toLocaleString() : null);
