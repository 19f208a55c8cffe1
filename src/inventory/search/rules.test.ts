import { describe, expect, it } from 'vitest';
import { NO_EXPIRY, queryWords } from '../../shared/search-text.js';
import type { InventoryItem } from '../schemas.js';
import {
  filterOf,
  ftsMatch,
  isBelowMinimum,
  itemIndexOf,
  likePatterns,
  orderOf,
  SORTS,
  splitWords,
  trigramMatch,
  tsQuery,
} from './rules.js';

describe('sort', () => {
  it('names a column and a direction; none is the default order', () => {
    expect(orderOf(undefined)).toEqual({ column: null, descending: false });
    expect(orderOf('name')).toEqual({ column: 'name_key', descending: false });
    expect(orderOf('-name')).toEqual({ column: 'name_key', descending: true });
    expect(orderOf('expiration_date')).toEqual({ column: 'soonest_expiry', descending: false });
    expect(orderOf('-updated_at')).toEqual({ column: 'updated_at', descending: true });
    for (const s of SORTS) expect(orderOf(s).column).not.toBeNull();
  });
});

describe('filters', () => {
  it('below_minimum=false filters nothing, and q becomes its words', () => {
    expect(filterOf({})).toEqual({
      labId: undefined,
      typeId: undefined,
      locationId: undefined,
      expiringBefore: undefined,
      belowMinimum: false,
      words: [],
    });
    expect(filterOf({ below_minimum: false }).belowMinimum).toBe(false);
    expect(filterOf({ below_minimum: true }).belowMinimum).toBe(true);
    expect(filterOf({ q: ' Anti-GFP ' }).words).toEqual([{ parts: ['anti', 'gfp'], joined: 'antigfp' }]);
  });
});

describe('full-text queries', () => {
  it('FTS5: each word a quoted prefix; a dashed word joined or as a phrase; all words needed', () => {
    expect(ftsMatch(queryWords('sod'))).toBe('"sod"*');
    expect(ftsMatch(queryWords('tris-hcl buf'))).toBe('("trishcl"* OR "tris hcl"*) AND "buf"*');
  });

  it('FTS5: operators and quotes in q stay words', () => {
    expect(ftsMatch(queryWords('a AND "b" OR NEAR(c) -d e* ^f'))).toBe(
      '"a"* AND "and"* AND "b"* AND "or"* AND ("nearc"* OR "near c"*) AND "d"* AND "e"* AND "f"*',
    );
    // Only letters and digits reach this far; a quote would still be doubled.
    expect(ftsMatch([{ parts: ['x"y'], joined: 'x"y' }])).toBe('"x""y"*');
  });

  it('PostgreSQL: each word a quoted prefix lexeme; a dashed word joined or as a phrase', () => {
    expect(tsQuery(queryWords('sod'))).toBe("'sod':*");
    expect(tsQuery(queryWords('7732-18-5 water'))).toBe("('7732185':* | '7732' <-> '18' <-> '5':*) & 'water':*");
    expect(tsQuery(queryWords("a & b | !c <-> d:* 'e'"))).toBe("'a':* & 'b':* & 'c':* & 'd':* & 'e':*");
    expect(tsQuery([{ parts: ["x'y\\"], joined: "x'y\\" }])).toBe("'x''y\\\\':*");
  });
});

describe('substring queries (issue 23)', () => {
  it('words of 3 characters (code points) or more go inside words, shorter ones to the start of a word', () => {
    const { inside, starts } = splitWords(queryWords('ethyl ab 氯化钠 x-y t-3253 é'));
    expect(inside.map((w) => w.joined)).toEqual(['ethyl', '氯化钠', 't3253']);
    expect(starts.map((w) => w.joined)).toEqual(['ab', 'xy', 'e']);
  });

  it('FTS5 trigram: each word quoted, a dashed word joined or as a phrase, all needed; operators stay words', () => {
    expect(trigramMatch(queryWords('ethyl'))).toBe('"ethyl"');
    expect(trigramMatch(queryWords('tris-hcl buffer'))).toBe('("trishcl" OR "tris hcl") AND "buffer"');
    expect(trigramMatch(queryWords('NEAR(abc) "and"'))).toBe('("nearabc" OR "near abc") AND "and"');
    expect(trigramMatch([{ parts: ['x"yz'], joined: 'x"yz' }])).toBe('"x""yz"');
  });

  it('LIKE: anywhere for a long word, after a space (the start of a word) for a short one', () => {
    expect(likePatterns(queryWords('ethyl')[0]!, true)).toEqual(['%ethyl%']);
    expect(likePatterns(queryWords('a-b')[0]!, false)).toEqual(['% ab%', '% a b%']);
  });
});

describe('below minimum', () => {
  it('only with a minimum, and only strictly below it, exactly', () => {
    expect(isBelowMinimum('3', null)).toBe(false);
    expect(isBelowMinimum('3', '5')).toBe(true);
    expect(isBelowMinimum('5', '5.0')).toBe(false);
    expect(isBelowMinimum('0.3', '0.30000000001')).toBe(true);
    expect(isBelowMinimum('12345678901234567890.1', '12345678901234567890.10000000001')).toBe(true);
    expect(isBelowMinimum('0', '0')).toBe(false);
  });
});

describe('what an item is indexed by', () => {
  const base = {
    id: 'x',
    name: 'Anti-GFP',
    vendor: 'Abcam',
    catalog_number: 'ab290',
    cas_number: null,
    serial_number: null,
    lot_number: null,
    expiration_date: null,
    quantity: '0.3',
    instances: [
      { id: 'i1', quantity: '0.1', lot_number: 'A1', expiration_date: '2027-06-30', location: null },
      { id: 'i2', quantity: '0.2', lot_number: null, expiration_date: '2027-01-01', location: null },
    ],
  } as unknown as InventoryItem;

  it("takes the shown quantity, the soonest expiry and the instances' lot numbers", () => {
    expect(itemIndexOf(base, '0.31')).toEqual({
      name_key: 'anti-gfp',
      soonest_expiry: '2027-01-01',
      below_minimum: 1,
      document: 'anti gfp antigfp abcam ab290 a1',
    });
    expect(itemIndexOf({ ...base, instances: [] }, null)).toMatchObject({ soonest_expiry: NO_EXPIRY, below_minimum: 0 });
    expect(itemIndexOf({ ...base, expiration_date: '2026-01-01', instances: [] }, '0.3').soonest_expiry).toBe('2026-01-01');
  });
});
