import { describe, expect, it } from 'vitest';
import {
  fold,
  itemSearchDocument,
  MAX_DOCUMENT,
  MAX_QUERY_WORDS,
  MAX_TOKEN,
  NO_EXPIRY,
  nameSortKey,
  queryWords,
  searchDocument,
  soonestExpiry,
} from './search-text.js';

describe('fold', () => {
  it('drops accents and case, and decomposes compatibility forms', () => {
    expect(fold('Äthanol ÉCOLE')).toBe('athanol ecole');
    expect(fold('ＡＢ１２')).toBe('ab12');
    expect(fold('İstanbul')).toBe('istanbul');
    expect(fold('H₂O²')).toBe('h2o2');
  });
});

describe('search document', () => {
  it('keeps letter-and-digit runs, and a dashed word also joined', () => {
    expect(searchDocument(['Anti-GFP antibody', 'ab290', '7732-18-5'])).toBe('anti gfp antigfp antibody ab290 7732 18 5 7732185');
  });

  it('treats quotes, operators and symbols as separators', () => {
    expect(searchDocument(['"Tris" AND (HCl)*', 'NEAR/2 -x ^y'])).toBe('tris and hcl near 2 near2 x y');
  });

  it('keeps each word once and skips empty values', () => {
    expect(searchDocument(['Lot A1', null, undefined, '', 'lot a1', 'A1'])).toBe('lot a1');
  });

  it('cuts tokens and the document to their limits', () => {
    const long = 'x'.repeat(MAX_TOKEN + 50);
    expect(searchDocument([long])).toBe('x'.repeat(MAX_TOKEN));
    const many = Array.from({ length: 5000 }, (_, i) => `LOT${i}`);
    const doc = searchDocument(many);
    expect(doc.length).toBeLessThanOrEqual(MAX_DOCUMENT);
    expect(doc.startsWith('lot0 lot1 ')).toBe(true);
  });

  it("is an item's name, vendor, catalog, CAS, serial and lot numbers, and its instances' lot numbers", () => {
    const doc = itemSearchDocument(
      { name: 'Ethanol', vendor: 'Sigma', catalog_number: 'E7023', cas_number: '64-17-5', serial_number: 'SN9', lot_number: 'LOT-1' },
      ['B2', null],
    );
    expect(doc).toBe('ethanol sigma e7023 64 17 5 64175 sn9 lot 1 lot1 b2');
  });
});

describe('query words', () => {
  it('gives each word its runs and them joined', () => {
    expect(queryWords('  Anti-GFP  ab ')).toEqual([
      { parts: ['anti', 'gfp'], joined: 'antigfp' },
      { parts: ['ab'], joined: 'ab' },
    ]);
  });

  it('has no words for empty or punctuation-only input, so it never carries syntax', () => {
    for (const q of ['', '   ', '"', '*', '-', '()', '"" AND', '^', '\u0000']) {
      const words = queryWords(q);
      for (const w of words) for (const p of w.parts) expect(p).toMatch(/^[\p{L}\p{N}]+$/u);
    }
    expect(queryWords('" * - ( ) :')).toEqual([]);
  });

  it(`keeps at most ${MAX_QUERY_WORDS} words`, () => {
    expect(queryWords(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))).toHaveLength(MAX_QUERY_WORDS);
  });
});

describe('sort keys', () => {
  it('sorts names by their folded form', () => {
    expect(nameSortKey('  Äthanol ')).toBe('athanol');
    expect(['beta', 'Alpha', 'ápple'].map(nameSortKey).sort()).toEqual(['alpha', 'apple', 'beta']);
  });

  it('takes the soonest expiry, none after every date', () => {
    expect(soonestExpiry(['2027-01-31', null, '2026-12-01'])).toBe('2026-12-01');
    expect(soonestExpiry([null, undefined])).toBe(NO_EXPIRY);
    expect(soonestExpiry([])).toBe(NO_EXPIRY);
  });
});
