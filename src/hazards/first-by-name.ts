import type { UnknownItem } from './control-area-rules.js';

const byName = (a: UnknownItem, b: UnknownItem) =>
  a.item_name.localeCompare(b.item_name) || (a.item_id ?? '').localeCompare(b.item_id ?? '');

/**
 * The first `n` items by name, as sorting all and keeping `n` would give: a line can name hundreds of items and
 * shows ten, and sorting them all was a large part of a changed meter's time (docs/performance.md, "The meter's
 * lines after a change"). No two items compare equal (one entry per item, or per name without an item).
 */
export function firstByName(items: Iterable<UnknownItem>, n: number): UnknownItem[] {
  if (!Number.isFinite(n)) return [...items].sort(byName);
  const first: UnknownItem[] = [];
  if (n <= 0) return first;
  for (const u of items) {
    if (first.length === n && byName(u, first[n - 1]!) >= 0) continue;
    let lo = 0;
    let hi = first.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byName(first[mid]!, u) < 0) lo = mid + 1;
      else hi = mid;
    }
    first.splice(lo, 0, u);
    if (first.length > n) first.pop();
  }
  return first;
}
