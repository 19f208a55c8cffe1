import { describe, expect, it } from 'vitest';
import { parseCatalogueRow, searchTextOf } from './rules.js';

describe('search text', () => {
  it('lower-cases name, catalog number and vendor', () => {
    expect(searchTextOf({ item_name: 'Tris BASE', catalog_number: 'T-1', vendor_name: 'Roth' })).toBe('tris base t-1 roth');
  });
});

describe('catalogue rows', () => {
  const good = {
    item_name: 'Tris',
    catalog_number: 'T1',
    vendor_name: 'Roth',
    unit_name: 'kilograms',
    unit_symbol: 'kg',
    unit_amount: '1',
    price: '49.90',
    currency: 'EUR',
  };
  it('reads price in major units into minor units', () => {
    expect(parseCatalogueRow(good)).toEqual({
      product: { ...Object.fromEntries(Object.entries(good).filter(([k]) => k !== 'price')), price_amount: '4990' },
    });
    expect(parseCatalogueRow({ ...good, price: '279', currency: 'USD' })).toMatchObject({ product: { price_amount: '27900' } });
    expect(parseCatalogueRow({ ...good, price: 1500, currency: 'JPY', unit_amount: 0.5 })).toMatchObject({
      product: { price_amount: '1500', unit_amount: '0.5' },
    });
  });
  it('names every problem', () => {
    const r = parseCatalogueRow({ ...good, item_name: '', price: '1.999', unit_amount: '0', colour: 'red' });
    expect(r).toEqual({
      errors: expect.arrayContaining([
        'item_name: required',
        'price: EUR has 2 decimal places; "1.999" has 3',
        'unit_amount: "0" is not a positive number',
        expect.stringContaining('unknown field colour'),
      ]),
    });
    expect(parseCatalogueRow({ ...good, currency: 'EURO' })).toEqual({ errors: ['currency: "EURO" is not an ISO 4217 code'] });
    expect(parseCatalogueRow({ ...good, price: '-1' })).toEqual({ errors: ['price: "-1" is not a non-negative amount such as 279.00'] });
  });
});
