import { type Dec, dec } from './decimal.js';

// Money on the wire is {amount, currency} with amount an integer string in the currency's minor units
// (USD "1250" is 12.50). The ISO 4217 list and each currency's minor-unit digits come from the ICU data that
// ships with Node, so there is no table of our own to keep up to date.

const KNOWN = new Set(Intl.supportedValuesOf('currency'));

export const isCurrency = (code: unknown): code is string => typeof code === 'string' && /^[A-Z]{3}$/.test(code) && KNOWN.has(code);

// Building an Intl.NumberFormat costs ~100 µs, and a POST /order-requests asked three times: ~9 % of its CPU
// (docs/performance.md, "Writes at a fifth of the cost"). A currency's digits do not change while the process runs.
const digitsByCurrency = new Map<string, number>();

export function minorDigits(currency: string): number {
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    // Only codes that name a currency are kept, so a client cannot grow the map with made-up codes.
    if (KNOWN.has(currency)) digitsByCurrency.set(currency, digits);
  }
  return digits;
}

export interface Money {
  amount: string;
  currency: string;
}

/**
 * Reads an input amount: digits only are minor units; with a decimal point it is major units and may not carry
 * more decimals than the currency has. Returns the exact major-unit value, or an error message.
 */
export function parseMoneyAmount(amount: string, currency: string): { major: Dec } | { error: string } {
  const digits = minorDigits(currency);
  if (/^\d{1,18}$/.test(amount)) return { major: dec(amount).div(dec(10).pow(digits)) };
  const m = /^(\d{1,18})\.(\d+)$/.exec(amount);
  // People read this under a price field: no "minor units" (the API reference explains both forms).
  if (!m) return { error: 'must be an amount such as 12.50 (digits alone count the smallest coin: 1250 is 12.50)' };
  if (m[2]!.length > digits)
    return { error: `${currency} has ${digits} decimal place${digits === 1 ? '' : 's'}; "${amount}" has ${m[2]!.length}` };
  return { major: dec(amount) };
}

/** Major-unit decimal string with the currency's digits ("12.50"). */
export const formatMajor = (major: Dec, currency: string): string => major.toFixed(minorDigits(currency));

/** Money in minor units from a major-unit value, rounded half-even to the currency's digits. */
export function toMoney(major: Dec, currency: string): Money {
  const digits = minorDigits(currency);
  return { amount: major.mul(dec(10).pow(digits)).toDecimalPlaces(0).toFixed(0), currency };
}
