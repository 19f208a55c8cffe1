import { dec } from '../shared/decimal.js';
import { minorDigits } from '../shared/money.js';

// The catalogue's pure rules: what a catalogue row (CSV or JSON) must hold, and the text a product is searched by.

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

const CATALOGUE_FIELDS = [
  'item_name',
  'catalog_number',
  'vendor_name',
  'unit_name',
  'unit_symbol',
  'unit_amount',
  'price',
  'currency',
] as const;
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
  if (unknown.length > 0)
    errors.push(`unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (expected ${CATALOGUE_FIELDS.join(', ')})`);
  const product = {
    item_name: text('item_name'),
    catalog_number: text('catalog_number'),
    vendor_name: text('vendor_name'),
    unit_name: text('unit_name'),
    unit_symbol: text('unit_symbol'),
    unit_amount: text('unit_amount'),
    price_amount: '',
    currency: text('currency'),
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
      if ((m[2] ?? '').length > digits)
        errors.push(`price: ${product.currency} has ${digits} decimal places; "${price}" has ${m[2]!.length}`);
      else product.price_amount = dec(price).mul(dec(10).pow(digits)).toFixed(0);
    }
  }
  return errors.length > 0 ? { errors } : { product };
}
