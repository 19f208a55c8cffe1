import { sumDecimals } from '../shared/decimal.js';

/** A migrated lab's item quantity is the exact decimal sum of its active instances. */
export const itemQuantity = (usesInstances: boolean, legacyQuantity: string, activeInstanceQuantities: string[]): string =>
  usesInstances ? sumDecimals(activeInstanceQuantities) : legacyQuantity;

/** Strong ETag from the item's version, which every change to the item or its instances increments. */
export const etagOf = (version: number): string => `"v${version}"`;

/**
 * RFC 9110 If-Match with strong comparison: absent means no precondition; `*` matches any existing
 * representation; otherwise one of the listed tags must equal the current one (weak tags never match).
 */
export function ifMatchSatisfied(header: string | undefined, version: number): boolean {
  if (header === undefined) return true;
  const value = header.trim();
  if (value === '*') return true;
  const current = etagOf(version);
  return value
    .split(',')
    .map((t) => t.trim())
    .some((t) => t === current);
}
