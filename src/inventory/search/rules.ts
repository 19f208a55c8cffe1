import { dec } from '../../shared/decimal.js';
import type { Page } from '../../shared/pagination.js';
import { itemSearchDocument, nameSortKey, type QueryWord, queryWords, soonestExpiry } from '../../shared/search-text.js';
import type { InventoryItem } from '../schemas.js';

// The pure rules of finding items (docs/product.md §12): what GET /inventory-items' search parameters mean, the query text
// each database's full-text index is asked, and what an item is filtered and sorted by. The repository runs them;
// every change to an item or its instances stores what itemIndexOf says (src/inventory/changes.ts).

export const SORTS = ['name', '-name', 'expiration_date', '-expiration_date', 'updated_at', '-updated_at'] as const;
export type Sort = (typeof SORTS)[number];

/** The column each sort orders by; ties go by creation time, then id, in the same direction. */
export const SORT_COLUMNS = {
  name: 'name_key',
  expiration_date: 'soonest_expiry',
  updated_at: 'updated_at',
} as const;
export type SortColumn = (typeof SORT_COLUMNS)[keyof typeof SORT_COLUMNS];

export interface ItemOrder {
  /** null: the default order, creation time then id. */
  column: SortColumn | null;
  descending: boolean;
}

export function orderOf(sort: Sort | undefined): ItemOrder {
  if (!sort) return { column: null, descending: false };
  const descending = sort.startsWith('-');
  return { column: SORT_COLUMNS[(descending ? sort.slice(1) : sort) as keyof typeof SORT_COLUMNS], descending };
}

/** GET /inventory-items' filters, as the repository takes them. */
export interface ItemFilter {
  labId?: string;
  typeId?: string;
  locationId?: string;
  expiringBefore?: string;
  belowMinimum?: boolean;
  /** A GHS hazard class id (src/hazards/ghs-classes.ts): items whose effective statements give it. */
  hazardClass?: string;
  /** The words of `q`; none (an empty or punctuation-only q) filters nothing. */
  words?: QueryWord[];
}

export const filterOf = (query: {
  lab_id?: string;
  type_id?: string;
  location_id?: string;
  expiring_before?: string;
  below_minimum?: boolean;
  hazard_class?: string;
  q?: string;
}): ItemFilter => ({
  labId: query.lab_id,
  typeId: query.type_id,
  locationId: query.location_id,
  expiringBefore: query.expiring_before,
  belowMinimum: query.below_minimum === true,
  hazardClass: query.hazard_class,
  words: query.q === undefined ? [] : queryWords(query.q),
});

/** A search: any filter beyond lab_id. Its count is bounded; the plain list's (and a sort's alone) is exact. */
export const isSearch = (f: ItemFilter): boolean =>
  (f.words?.length ?? 0) > 0 ||
  f.typeId !== undefined ||
  f.locationId !== undefined ||
  f.expiringBefore !== undefined ||
  !!f.belowMinimum ||
  f.hazardClass !== undefined;

/** A search's X-Total-Count is exact up to this many items (docs/decisions/0014-bounded-search-counts.md). */
export const SEARCH_COUNT_CAP = 1000;

/**
 * How many matches a search's count reads: one more than the cap, or than the end of the page when the page lies
 * beyond the cap. Reaching it means more exist: the total is then reported as at least one less (no `last` link).
 */
export const countBoundOf = (page: Page): number => Math.max(SEARCH_COUNT_CAP, page.offset + page.perPage) + 1;

/**
 * SQLite: a search row's id, which is its FTS5 rowid, sorts the rows as the list does, by (created_at, item_id):
 * the second of created_at times 2^21, plus the row's rank within that second (storeItemIndexes). A word's matches
 * then come out of the full-text index in the list's order, and a page stops after its rows. 2^32 seconds (to
 * 2106) times 2^21 stays within 2^53, the integers JavaScript holds exactly; 2^21 items created in one second at most.
 */
export const SEARCH_IDS_PER_SECOND = 2 ** 21;
export const searchIdBase = (createdAt: string): number => Math.floor(Date.parse(createdAt) / 1000) * SEARCH_IDS_PER_SECOND;

// Every word must match. A word of 3 characters or more matches anywhere inside the document (`ethyl` finds
// "dimethyl sulfoxide"), through the trigram indexes (migration 0025); a shorter one matches the start of a word
// through the word index (a trigram index cannot look up fewer than 3 characters, and `a` anywhere would match
// nearly everything). Either way the word itself, or a dashed word's parts joined ("7732-18" finds "7732-18-5" and
// "7732185") or as a phrase ("tris-hcl" finds "Tris HCl"). The parts are letters and digits only
// (src/shared/search-text.ts): they are quoted all the same, so no input can become query syntax, and they hold
// no LIKE wildcard (`%`, `_`) either.

/** Fewest characters (code points) a word needs to be matched inside words. */
export const SUBSTRING_MIN = 3;

/** The words matched anywhere (`inside`) and those matched at the start of a word (`starts`). */
export function splitWords(words: readonly QueryWord[]): { inside: QueryWord[]; starts: QueryWord[] } {
  const inside: QueryWord[] = [];
  const starts: QueryWord[] = [];
  for (const w of words) ([...w.joined].length >= SUBSTRING_MIN ? inside : starts).push(w);
  return { inside, starts };
}

/** A word's forms: itself (its parts joined), and its parts as a phrase when it has several. */
export const formsOf = (w: QueryWord): string[] => (w.parts.length === 1 ? [w.joined] : [w.joined, w.parts.join(' ')]);

/** The FTS5 MATCH expression of the trigram table (SQLite): each word's forms anywhere in the document. */
export function trigramMatch(words: readonly QueryWord[]): string {
  return words
    .map((w) => {
      const forms = formsOf(w).map(ftsString);
      return forms.length === 1 ? forms[0]! : `(${forms.join(' OR ')})`;
    })
    .join(' AND ');
}

/**
 * LIKE patterns for one word, any of which matches: anywhere in the document (`%form%`), or, for a short word, at
 * the start of one of its words (`% form%`, tested against the document with a space before it).
 */
export const likePatterns = (w: QueryWord, inside: boolean): string[] => formsOf(w).map((f) => (inside ? `%${f}%` : `% ${f}%`));

const ftsString = (token: string) => `"${token.replaceAll('"', '""')}"`;

/** The FTS5 MATCH expression of the words (SQLite). */
export function ftsMatch(words: readonly QueryWord[]): string {
  return words
    .map((w) => (w.parts.length === 1 ? `${ftsString(w.joined)}*` : `(${ftsString(w.joined)}* OR ${ftsString(w.parts.join(' '))}*)`))
    .join(' AND ');
}

const lexeme = (token: string) => `'${token.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/** The to_tsquery('simple', …) text of the words (PostgreSQL). */
export function tsQuery(words: readonly QueryWord[]): string {
  return words
    .map((w) => {
      if (w.parts.length === 1) return `${lexeme(w.joined)}:*`;
      const phrase = w.parts.map((p, i) => (i === w.parts.length - 1 ? `${lexeme(p)}:*` : lexeme(p))).join(' <-> ');
      return `(${lexeme(w.joined)}:* | ${phrase})`;
    })
    .join(' & ');
}

/** Below its minimum: a minimum is set and the quantity is less (exact decimals; equal is not below). */
export const isBelowMinimum = (quantity: string, minimum: string | null): boolean => minimum !== null && dec(quantity).lessThan(minimum);

/** What the item is filtered and sorted by, from the item as the API shows it (so a migrated lab's quantity is its instances' sum). */
export interface ItemIndex {
  name_key: string;
  soonest_expiry: string;
  below_minimum: number;
  document: string;
}

export const itemIndexOf = (item: InventoryItem, minimum: string | null): ItemIndex => ({
  name_key: nameSortKey(item.name),
  soonest_expiry: soonestExpiry([item.expiration_date, ...item.instances.map((i) => i.expiration_date)]),
  below_minimum: isBelowMinimum(item.quantity, minimum) ? 1 : 0,
  document: itemSearchDocument(
    item,
    item.instances.map((i) => i.lot_number),
  ),
});
