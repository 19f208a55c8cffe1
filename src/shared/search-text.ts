// The words an inventory item is found by, and the words of a search, reduced the same way on both sides so that
// SQLite's FTS5 and PostgreSQL's full-text search see identical tokens (docs/api.md, "Searching inventory items").
// Here in src/shared/ because migration 0010 fills the index with the same words the application writes.

const MARKS = /\p{M}+/gu;
const RUNS = /[\p{L}\p{N}]+/gu;

/** Longest token kept, in characters (PostgreSQL refuses lexemes over 2 kB; prefixes of longer ones still match). */
export const MAX_TOKEN = 100;
/** Longest document kept, in characters (an item with thousands of instances still indexes its first lot numbers). */
export const MAX_DOCUMENT = 20_000;
/** Words of a search beyond this many are ignored. */
export const MAX_QUERY_WORDS = 16;

/** Compatibility-decomposed, without accents and marks, lower-cased: "Äthanol" and "ÄTHANOL" become "athanol". */
export const fold = (text: string): string => text.normalize('NFKD').replace(MARKS, '').toLowerCase().normalize('NFKD').replace(MARKS, '');

/**
 * The letter-and-digit runs of each space-separated word. A word with several runs ("7732-18-5", "Anti-GFP")
 * also gives them joined ("7732185", "antigfp"), so it is found with or without its dashes.
 */
function wordsOf(text: string): { parts: string[]; joined: string }[] {
  const out: { parts: string[]; joined: string }[] = [];
  for (const word of fold(text).split(/\s+/u)) {
    const parts = (word.match(RUNS) ?? []).map((p) => p.slice(0, MAX_TOKEN));
    if (parts.length > 0) out.push({ parts, joined: parts.join('').slice(0, MAX_TOKEN) });
  }
  return out;
}

/** The indexed text of some values: tokens separated by single spaces, each word once. */
export function searchDocument(values: readonly (string | null | undefined)[]): string {
  const seen = new Set<string>();
  let doc = '';
  for (const value of values) {
    if (!value) continue;
    for (const { parts, joined } of wordsOf(value)) {
      const group = parts.length > 1 ? `${parts.join(' ')} ${joined}` : joined;
      if (seen.has(group)) continue;
      if (doc.length + group.length + 1 > MAX_DOCUMENT) return doc;
      seen.add(group);
      doc = doc === '' ? group : `${doc} ${group}`;
    }
  }
  return doc;
}

/** What an item is searched by (docs/product.md §12): its own fields and the lot numbers of its active instances. */
export interface SearchableItem {
  name: string;
  vendor: string | null;
  catalog_number: string | null;
  cas_number: string | null;
  serial_number: string | null;
  lot_number: string | null;
}

export const itemSearchDocument = (item: SearchableItem, instanceLotNumbers: readonly (string | null)[]): string =>
  searchDocument([
    item.name,
    item.vendor,
    item.catalog_number,
    item.cas_number,
    item.serial_number,
    item.lot_number,
    ...instanceLotNumbers,
  ]);

/** One word of a search: its letter-and-digit runs, and them joined. */
export interface QueryWord {
  parts: string[];
  joined: string;
}

/** The words of `q`; punctuation, operators and quotes are only separators, so `q` never carries query syntax. */
export const queryWords = (q: string): QueryWord[] => wordsOf(q).slice(0, MAX_QUERY_WORDS);

/** The key items are sorted by name with: folded as searches are, so case and accents do not scatter them. */
export const nameSortKey = (name: string): string => fold(name).trim();

/** Items with no expiry sort after every date (they never expire) and are never "expiring before" a date. */
export const NO_EXPIRY = '9999-12-31';

/** The earliest of these dates (YYYY-MM-DD sorts as text), NO_EXPIRY without one. */
export function soonestExpiry(dates: readonly (string | null | undefined)[]): string {
  let soonest = NO_EXPIRY;
  for (const d of dates) if (d && d < soonest) soonest = d;
  return soonest;
}
