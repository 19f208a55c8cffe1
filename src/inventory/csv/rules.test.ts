import { describe, expect, it } from 'vitest';
import {
  CSV_COLUMNS,
  checkRow,
  conflictWith,
  csvField,
  csvRecord,
  firstRowOf,
  mapHeader,
  neutralise,
  normalizeHeader,
  unneutralise,
} from './rules.js';

describe('formula cells', () => {
  it('neutralises cells starting with =, +, -, @, tab or CR with an apostrophe, and nothing else', () => {
    for (const v of ['=1+1', '+1', '-1', '@A1', '\tx', '\rx', "'=x", "''-x"]) expect(neutralise(v)).toBe(`'${v}`);
    for (const v of ['plain', '1-2', ' =x', "'plain", 'a=b', '']) expect(neutralise(v)).toBe(v);
  });

  it('unneutralise is its inverse on every neutralised cell; a hand-typed apostrophe before a formula is taken off', () => {
    for (const v of ['=1+1', '+1', '-1', '@A1', '\tx', "'=x", "''-x", 'plain', "'plain", '1-2'])
      expect(unneutralise(neutralise(v))).toBe(v);
    expect(unneutralise("'=x")).toBe('=x');
    expect(unneutralise("'plain")).toBe("'plain");
  });
});

describe('RFC 4180 fields', () => {
  it('quotes commas, quotes, CR and LF and doubles quotes; null and empty are empty', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField('')).toBe('');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvRecord(['a', null, 'b c'])).toBe('a,,b c\r\n');
  });
});

describe('headers', () => {
  it('are the columns docs/csv.md lists, in its order (derived from the item fields, src/inventory/schemas.ts)', () => {
    expect(CSV_COLUMNS.join(',')).toBe(
      'item_id,instance_id,name,type,vendor,catalog_number,cas_number,unit_size,price,quantity,lot_number,' +
        'expiration_date,location,serial_number,url,vendor_product_id,auto_reminder,technical_details,hazard_statements',
    );
    expect(
      mapHeader(['id', 'Item', 'supplier', 'Cat #', 'CAS No', 'unit', 'batch', 'expires', 'location path', 'serial', 'notes', 'type name'])
        .columns,
    ).toEqual([
      'item_id',
      'name',
      'vendor',
      'catalog_number',
      'cas_number',
      'unit_size',
      'lot_number',
      'expiration_date',
      'location',
      'serial_number',
      'technical_details',
      'type',
    ]);
  });

  it('maps case, spaces, punctuation and aliases onto the columns', () => {
    expect(normalizeHeader(' Catalog # ')).toBe('catalog_#');
    expect(mapHeader(['NAME', 'Catalog #', 'qty', 'Expiry Date', 'cas-no']).columns).toEqual([
      'name',
      'catalog_number',
      'quantity',
      'expiration_date',
      'cas_number',
    ]);
  });

  it('names unknown and repeated columns, and a missing name column', () => {
    expect(mapHeader(['name', 'colour', 'qty', 'Quantity']).errors.map((e) => [e.column, e.code])).toEqual([
      ['colour', 'unknown_column'],
      ['Quantity', 'duplicate_column'],
    ]);
    expect(mapHeader(['vendor']).errors.map((e) => e.code)).toEqual(['missing_column']);
  });
});

describe('rows', () => {
  const ok = (cells: Record<string, string>, migrated = true) => {
    const r = checkRow(2, cells, migrated);
    if ('errors' in r) throw new Error(JSON.stringify(r.errors));
    return r.row;
  };
  const codes = (cells: Record<string, string>, migrated = true) => {
    const r = checkRow(2, cells, migrated);
    return 'errors' in r ? r.errors.map((e) => `${e.column}:${e.code}`) : [];
  };

  it('splits location paths on a slash with spaces around it only', () => {
    expect(ok({ name: 'x', quantity: '1', location: 'Room 1 / Freezer -80/-20 /  Shelf 2' }).path).toEqual([
      'Room 1',
      'Freezer -80/-20',
      'Shelf 2',
    ]);
    expect(codes({ name: 'x', quantity: '1', location: 'A /  / B' })).toEqual(['location:invalid_location']);
    expect(codes({ name: 'x', quantity: '1', location: 'A / B / C / D / E / F / G' })).toEqual([]);
    expect(codes({ name: 'x', quantity: '1', location: 'A / B / C / D / E / F / G / H' })).toEqual(['location:location_too_deep']);
    expect(codes({ name: 'x', location: 'A / B / C' }, false)).toEqual(['location:location_too_deep']);
  });

  it('checks decimals, dates, UUIDs and ids, and asks a quantity of an instance', () => {
    expect(codes({ name: 'x', quantity: '1e3', price: '-1' })).toEqual(['price:invalid_decimal', 'quantity:invalid_decimal']);
    expect(codes({ name: 'x', quantity: '1', expiration_date: '2027-02-29' })).toEqual(['expiration_date:invalid_date']);
    expect(codes({ name: 'x', quantity: '1', expiration_date: '2028-02-29' })).toEqual([]);
    expect(codes({ name: 'x', lot_number: 'L1' })).toEqual(['quantity:required']);
    expect(codes({ name: 'x', lot_number: 'L1' }, false)).toEqual([]);
    expect(codes({ name: '', item_id: 'x' })).toEqual(['item_id:has_id', 'name:required']);
    expect(codes({ name: 'x'.repeat(501) })).toEqual(['name:too_long']);
  });

  it('rows of one item must agree on its fields (types by name whatever the case)', () => {
    const a = firstRowOf(ok({ name: 'x', type: 'Antibody', price: '1' }));
    expect(conflictWith(a, { ...ok({ name: 'x', type: 'antibody', price: '1' }), line: 3 })).toBeNull();
    expect(conflictWith(a, { ...ok({ name: 'x', type: 'Antibody', price: '2' }), line: 3 })?.message).toContain('price');
    const hazards = conflictWith(a, { ...ok({ name: 'x', type: 'Antibody', price: '2', hazard_statements: 'H225' }), line: 4 });
    expect(hazards?.message).toMatch(/line \d+, but a different price, hazard statements:/);
  });
});
