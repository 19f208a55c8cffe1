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
