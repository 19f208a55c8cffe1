import { randomInt } from 'node:crypto';
import type { OrderStatus } from '../shared/db/schema.js';
import { dec } from '../shared/decimal.js';
import { minorDigits } from '../shared/money.js';
import type { LineStatus } from './schemas.js';

// The shop's pure rules (docs/product.md §6): what an operator may do to a line, what the line's request becomes, the
// order's charges in exact minor units and order keys. A catalogue row's shape is src/catalogue/rules.ts.

export interface LineState {
  status: LineStatus;
  quantity: number;
  shipped: number;
  delivered: number;
}

const CLOSED: readonly LineStatus[] = ['DELIVERED', 'CANCELLED'];

/** Why a shipment of `quantity` cannot be added now, or null if it can. */
export function refuseShipment(line: LineState, quantity: number): string | null {
  if (CLOSED.includes(line.status)) return `the line is ${line.status}`;
  const open = line.quantity - line.shipped;
  if (open === 0) return 'the whole quantity has already shipped';
  if (quantity > open) return `only ${open} of ${line.quantity} are left to ship`;
  return null;
}

/**
 * The line's status after a shipment. It becomes SHIPPED only once everything has shipped; a partial shipment
 * leaves it PLACED (or backordered for the rest), which is what the contract's shipped payload shows (PLACED).
 */
export const statusAfterShipment = (line: LineState, quantity: number): LineStatus =>
  line.shipped + quantity >= line.quantity ? 'SHIPPED' : line.status;

export function refuseBackorder(line: LineState): string | null {
  if (CLOSED.includes(line.status)) return `the line is ${line.status}`;
  if (line.shipped >= line.quantity) return 'the whole quantity has already shipped';
  return null;
}

/** Cancelling is for goods that never left: once anything shipped, the line can only be delivered. */
export function refuseCancel(line: LineState): string | null {
  if (CLOSED.includes(line.status)) return `the line is ${line.status}`;
  if (line.shipped > 0) return `${line.shipped} of ${line.quantity} already shipped`;
  return null;
}

/** DELIVERED once every unit has shipped and every shipment has been delivered. */
export const isFullyDelivered = (line: LineState): boolean => line.delivered >= line.quantity;

/** The status a checked-out request follows from its line. */
export const REQUEST_STATUS_OF_LINE: Record<LineStatus, OrderStatus> = {
  PLACED: 'ORDERED',
  SHIPPED: 'ORDERED',
  BACKORDERED: 'BACKORDERED',
  INDEFINITELY_BACKORDERED: 'BACKORDERED',
  DELIVERED: 'RECEIVED',
  CANCELLED: 'CANCELLED',
};

/** Requests in these states may be checked out. */
export const CHECKOUT_FROM: readonly OrderStatus[] = ['CREATED', 'APPROVED'];

export interface Charges {
  subtotal: string;
  shipping: string;
  handling: string;
  tax: string;
  total: string;
}

/**
 * The order's charges in integer minor units. Shipping and handling are per order, in major units of the order's
 * currency; tax is the rate times (subtotal + shipping + handling), rounded half-even to the minor unit.
 */
export function computeCharges(
  lines: { unitMinor: string; quantity: number }[],
  currency: string,
  fees: { shipping: string; handling: string; taxRate: string },
): Charges {
  const scale = dec(10).pow(minorDigits(currency));
  const subtotal = lines.reduce((sum, l) => sum.add(dec(l.unitMinor).mul(l.quantity)), dec(0));
  const shipping = dec(fees.shipping).mul(scale).toDecimalPlaces(0);
  const handling = dec(fees.handling).mul(scale).toDecimalPlaces(0);
  const tax = subtotal.add(shipping).add(handling).mul(fees.taxRate).toDecimalPlaces(0);
  const total = subtotal.add(shipping).add(handling).add(tax);
  return {
    subtotal: subtotal.toFixed(0),
    shipping: shipping.toFixed(0),
    handling: handling.toFixed(0),
    tax: tax.toFixed(0),
    total: total.toFixed(0),
  };
}

// Crockford's base32 without I, L, O, U: nothing a person reading a key over the phone can confuse.
const KEY_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** "SO-2026-K7Q3XM": the year and six random characters (about a billion per year). */
export function newOrderKey(now: Date = new Date()): string {
  let tail = '';
  for (let i = 0; i < 6; i++) tail += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return `SO-${now.getUTCFullYear()}-${tail}`;
}

/** Estimates from a start date: shipment after `shipDays`, delivery three days after that. */
export function estimatedDates(from: string, shipDays: number): { shipment: string; delivery: string } {
  const add = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  const shipment = add(from, shipDays);
  return { shipment, delivery: add(shipment, 3) };
}
