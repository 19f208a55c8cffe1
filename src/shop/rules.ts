import { randomInt } from 'node:crypto';
import type { OrderStatus } from '../shared/db/schema.js';
import { dec } from '../shared/decimal.js';
import { minorDigits } from '../shared/money.js';
import type { LineStatus } from './schemas.js';

// The shop's pure rules (PRODUCT §6): what an operator may do to a line, what the line's request becomes, the
// order's charges in exact minor units, order keys, and the shape of a catalogue row.

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
  (line.shipped + quantity >= line.quantity ? 'SHIPPED' : line.status);

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
  lines: { unitMinor: string; quantity: number }[], currency: string, fees: { shipping: string; handling: string; taxRate: string },
): Charges {
  const scale = dec(10).pow(minorDigits(currency));
  const subtotal = lines.reduce((sum, l) => sum.add(dec(l.unitMinor).mul(l.quantity)), dec(0));
  const shipping = dec(fees.shipping).mul(scale).toDecimalPlaces(0);
  const handling = dec(fees.handling).mul(scale).toDecimalPlaces(0);
  const tax = subtotal.add(shipping).add(handling).mul(fees.taxRate).toDecimalPlaces(0);
  const total = subtotal.add(shipping).add(handling).add(tax);
  return { subtotal: subtotal.toFixed(0), shipping: shipping.toFixed(0), handling: handling.toFixed(0), tax: tax.toFixed(0), total: total.toFixed(0) };
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

export const searchTextOf = (p: { item_name: string; catalog_number: string; vendor_name: string }): string =>
  `${p.item_name} ${p.catalog_number} ${p.vendor_name}`.toLowerCase();

export interface CatalogueProduct {
  item_name: string;
  catalog_number: string;
  vendor_name: string;
  unit_name: string;
  unit_symbol: string;
  unit_amount: string;
  /** Minor units. */
  price_amount: string;
  currency: string;
}

const CATALOGUE_FIELDS = ['item_name', 'catalog_number', 'vendor_name', 'unit_name', 'unit_symbol', 'unit_amount', 'price', 'currency'] as const;
export const CATALOGUE_COLUMNS: readonly string[] = CATALOGUE_FIELDS;

const LIMITS: Record<string, number> = { item_name: 500, catalog_number: 200, vendor_name: 500, unit_name: 100, unit_symbol: 20 };

/**
 * Checks one catalogue row (from CSV or JSON). `price` is in major units ("279.00" or "279"), never minor units,
 * because that is how price lists are written; it may not have more decimals than the currency.
 */
export function parseCatalogueRow(raw: Record<string, unknown>): { product: CatalogueProduct } | { errors: string[] } {
  const errors: string[] = [];
  const text = (field: string): string => {
    const v = raw[field];
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    if (typeof v !== 'string' || v.trim() === '') {
      errors.push(`${field}: required`);
      return '';
    }
    const s = v.trim();
    if (LIMITS[field] !== undefined && s.length > LIMITS[field]!) errors.push(`${field}: at most ${LIMITS[field]} characters`);
    if (s.includes('\u0000')) errors.push(`${field}: contains U+0000`);
    return s;
  };
  const unknown = Object.keys(raw).filter((k) => !CATALOGUE_FIELDS.includes(k as (typeof CATALOGUE_FIELDS)[number]));
  if (unknown.length > 0) errors.push(`unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (expected ${CATALOGUE_FIELDS.join(', ')})`);
  const product = {
    item_name: text('item_name'), catalog_number: text('catalog_number'), vendor_name: text('vendor_name'),
    unit_name: text('unit_name'), unit_symbol: text('unit_symbol'), unit_amount: text('unit_amount'), price_amount: '', currency: text('currency'),
  };
  const price = text('price');
  if (product.unit_amount !== '' && !(/^\d{1,12}(\.\d{1,6})?$/.test(product.unit_amount) && dec(product.unit_amount).gt(0))) {
    errors.push(`unit_amount: "${product.unit_amount}" is not a positive number`);
  }
  let currencyOk = false;
  if (product.currency !== '') {
    try {
      currencyOk = /^[A-Z]{3}$/.test(product.currency) && Intl.supportedValuesOf('currency').includes(product.currency);
    } catch {
      currencyOk = false;
    }
    if (!currencyOk) errors.push(`currency: "${product.currency}" is not an ISO 4217 code`);
  }
  if (price !== '') {
    const m = /^(\d{1,15})(?:\.(\d+))?$/.exec(price);
    if (!m) errors.push(`price: "${price}" is not a non-negative amount such as 279.00`);
    else if (currencyOk) {
      const digits = minorDigits(product.currency);
      if ((m[2] ?? '').length > digits) errors.push(`price: ${product.currency} has ${digits} decimal places; "${price}" has ${m[2]!.length}`);
      else product.price_amount = dec(price).mul(dec(10).pow(digits)).toFixed(0);
    }
  }
  return errors.length > 0 ? { errors } : { product };
}
