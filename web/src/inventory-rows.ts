import type { components } from '@labstock/client';

// What a row of the inventory list shows beyond the item's own name: its lot and location where they matter, its
// unit, and why a search found it when the words are not in the name (issue 23). Computed here from the item as the
// API returns it (its instances, lot and location fields), so the contract's InventoryItem gains no field. The words
// are compared as the server compares them (src/shared/search-text.ts): case, accents and punctuation do not count.

export type Item = components['schemas']['InventoryItem'];

/** Letters and digits only, without accents, lower-cased: "GR-3323" and "gr3323" are the same. */
const norm = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/** The words of a search as the server splits them (at blanks), each as `norm` reduces it; empty ones dropped. */
export const searchWords = (q: string): string[] =>
  q
    .split(/\s+/u)
    .map(norm)
    .filter((w) => w !== '');

const has = (text: string | null | undefined, word: string) => !!text && norm(text).includes(word);

/** An instance's place as people say it: "Room 101 / Freezer A". */
const placeOf = (pathNames: readonly string[]): string => pathNames.join(' / ');

interface Stock {
  lot: string | null;
  place: string | null;
}

/** The item's stock: its active instances in a lab that uses them, else the item's own lot and location. */
function stockOf(item: Item): Stock[] {
  if (item.instances.length > 0)
    return item.instances.map((i) => ({ lot: i.lot_number ?? null, place: i.location ? placeOf(i.location.pathNames) : null }));
  const place = [item.location?.name, item.sublocation?.name].filter((n): n is string => !!n);
  return [{ lot: item.lot_number ?? null, place: place.length > 0 ? placeOf(place) : null }];
}

/** One value, or the first and how many others: "GR3323 +2". */
function summary(values: (string | null)[]): string {
  const distinct = [...new Set(values.filter((v): v is string => !!v))];
  if (distinct.length <= 1) return distinct[0] ?? '';
  return `${distinct[0]} +${distinct.length - 1}`;
}

export const lotsOf = (item: Item): string => summary(stockOf(item).map((s) => s.lot));
export const placesOf = (item: Item): string => summary(stockOf(item).map((s) => s.place));

/** The quantity with its unit size when there is one: "3 × 1 L". */
export const quantityOf = (item: Item): string => (item.unit_size ? `${item.quantity} × ${item.unit_size}` : item.quantity);

/** The earliest expiry of the item or its instances, or ''. */
export function soonestExpiry(item: Item): string {
  const dates = [item.expiration_date, ...item.instances.map((i) => i.expiration_date)].filter((d): d is string => !!d).sort();
  return dates[0] ?? '';
}

/**
 * Why the item matched the search when some word is not in its name: the field that holds it, in words
 * ("lot GR3323 in Freezer A", "vendor Sigma-Aldrich", "CAS 7647-14-5"). Null when the name holds every word.
 */
export function matchReason(item: Item, q: string): string | null {
  const words = searchWords(q).filter((w) => !has(item.name, w));
  if (words.length === 0) return null;
  const reasons: string[] = [];
  const add = (reason: string) => {
    if (!reasons.includes(reason)) reasons.push(reason);
  };
  for (const word of words) {
    const lot = stockOf(item).find((s) => has(s.lot, word));
    if (lot) add(`lot ${lot.lot}${lot.place ? ` in ${lot.place}` : ''}`);
    else if (has(item.catalog_number, word)) add(`catalog no. ${item.catalog_number}`);
    else if (has(item.cas_number, word)) add(`CAS ${item.cas_number}`);
    else if (has(item.serial_number, word)) add(`serial no. ${item.serial_number}`);
    else if (has(item.vendor, word)) add(`vendor ${item.vendor}`);
  }
  return reasons.length > 0 ? reasons.join(', ') : null;
}

/** Every element of a paged list (the client's `paginate`, which follows the `next` links): no page left out. */
export async function collect<T>(pages: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of pages) out.push(x);
  return out;
}
