import { Decimal } from 'decimal.js';

// Quantities and prices travel as strings and are added with exact decimal arithmetic: "0.1" + "0.2" is "0.3".
// A dedicated constructor keeps our precision settings from leaking into any other user of decimal.js.
const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -100, toExpPos: 100 });
export type Dec = InstanceType<typeof D>;

export const DECIMAL_PATTERN = '^\\d{1,20}(\\.\\d{1,10})?$';

export const dec = (s: string | number): Dec => new D(s);

export function sumDecimals(values: Iterable<string>): string {
  let total = new D(0);
  for (const v of values) total = total.plus(v);
  return total.toFixed();
}

export const addDecimals = (a: string, b: string): string => new D(a).plus(b).toFixed();

/** The exact sum of space-separated decimal quantities: whole numbers of up to 15 digits as numbers, others as decimals. */
export function sumQuantities(list: string): string {
  let whole = 0;
  let rest: Dec | null = null;
  for (const q of list.split(' ')) {
    if (q.length <= 15 && !q.includes('.')) whole += Number(q);
    else rest = (rest ?? dec(0)).plus(q);
    if (whole > 2 ** 52) {
      rest = (rest ?? dec(0)).plus(whole);
      whole = 0;
    }
  }
  return rest === null ? String(whole) : rest.plus(whole).toFixed();
}
