import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountView, humanAmount, isKnown, parseUnitSize, sumAmounts, totalAmount } from './amounts.js';
import { dec } from './decimal.js';

/** [text, family, amount as written, unit, base amount (kg | L | count)] */
const READ: [string, string, string, string, string][] = [
  ['100 µL', 'volume', '100', 'µL', '0.0001'],
  ['100 μL', 'volume', '100', 'µL', '0.0001'], // Greek mu
  ['100 uL', 'volume', '100', 'µL', '0.0001'],
  ['100ul', 'volume', '100', 'µL', '0.0001'],
  ['500mL', 'volume', '500', 'mL', '0.5'],
  ['500 ML', 'volume', '500', 'mL', '0.5'], // catalogue capitals: a millilitre, never a megalitre
  ['1 L', 'volume', '1', 'L', '1'],
  ['2.5 l', 'volume', '2.5', 'L', '2.5'],
  ['1 litre', 'volume', '1', 'litre', '1'],
  ['250 milliliters', 'volume', '250', 'milliliters', '0.25'],
  ['10 x 1 mL', 'volume', '10', 'mL', '0.01'],
  ['4 × 2.5 L', 'volume', '10', 'L', '10'],
  ['1 gal', 'volume', '1', 'gal', '3.785411784'],
  ['1 fl oz', 'volume', '1', 'fl oz', '0.0295735295625'],
  ['5 cc', 'volume', '5', 'mL', '0.005'],
  ['.5 L', 'volume', '0.5', 'L', '0.5'],
  ['１００ ｍＬ', 'volume', '100', 'mL', '0.1'], // full-width, as pasted from some catalogues
  ['2.5 kg', 'mass', '2.5', 'kg', '2.5'],
  ['2,5 kg', 'mass', '2.5', 'kg', '2.5'], // decimal comma
  ['1 Kg', 'mass', '1', 'kg', '1'],
  ['25 g', 'mass', '25', 'g', '0.025'],
  ['500 gm', 'mass', '500', 'g', '0.5'],
  ['100 mcg', 'mass', '100', 'µg', '0.0000001'],
  ['1 µg', 'mass', '1', 'µg', '0.000000001'],
  ['1 lb', 'mass', '1', 'lb', '0.45359237'],
  ['16 oz', 'mass', '16', 'oz', '0.45359237'],
  ['500 tablets', 'count', '500', 'tablet', '500'],
  ['1 each', 'count', '1', 'piece', '1'],
  ['100 pcs', 'count', '100', 'piece', '100'],
  ['2 x 96 tests', 'count', '192', 'test', '192'],
];

const UNREAD = [
  '5 mg/mL', // a concentration, not an amount
  '1,000 mL', // a thousand or one?
  '500 mL bottle',
  '1 L (glass)',
  '10 cm', // a length
  '37 °C',
  'case',
  '',
  '   ',
  '1-5 kg',
  '-1 L',
  '1e3 mL',
  '1 megalitre bottle',
  '12 x',
];

describe('parseUnitSize', () => {
  it.each(READ)('reads %j', (text, family, amount, unit, base) => {
    const size = parseUnitSize(text);
    expect(size.family).toBe(family);
    if (!isKnown(size)) throw new Error('unknown');
    expect(size.amount.toFixed()).toBe(amount);
    expect(size.unit).toBe(unit);
    expect(size.base.toFixed()).toBe(base);
  });

  it.each(UNREAD)('leaves %j unknown', (text) => {
    expect(parseUnitSize(text)).toEqual({ family: 'unknown' });
  });

  it('leaves a missing size unknown', () => {
    expect(parseUnitSize(null).family).toBe('unknown');
    expect(parseUnitSize(undefined).family).toBe('unknown');
  });
});

describe('totalAmount', () => {
  it('multiplies exactly: 3 × 0.1 L is 0.3 L', () => {
    const t = totalAmount('3', '0.1 L');
    if (!isKnown(t)) throw new Error('unknown');
    expect(t.base.toFixed()).toBe('0.3');
    expect(humanAmount(t)).toBe('300 mL');
  });

  it('reports in kg, L or a count of the noun', () => {
    expect(totalAmount('2', '2.5 L')).toMatchObject({ family: 'volume' });
    expect((totalAmount('2', '2.5 L') as { base: { toFixed(): string } }).base.toFixed()).toBe('5');
    expect(totalAmount('3', '500 tablets')).toMatchObject({ family: 'count', noun: 'tablet' });
  });

  it('is unknown for an unknown size or an unreadable quantity', () => {
    expect(totalAmount('3', '5 mg/mL').family).toBe('unknown');
    expect(totalAmount('3', null).family).toBe('unknown');
    expect(totalAmount('-3', '1 L').family).toBe('unknown');
    expect(totalAmount('abc', '1 L').family).toBe('unknown');
  });

  it('agrees with decimal arithmetic for any quantity and millilitre size (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 999_999 }), (q, ml) => {
        const t = totalAmount(String(q), `${ml} mL`);
        if (!isKnown(t)) return false;
        return t.base.eq(dec(q).mul(ml).div(1000));
      }),
    );
  });

  it('reads the same size whatever the case of a metric unit (property)', () => {
    const units = ['ml', 'l', 'ul', 'mg', 'g', 'kg', 'µl', 'µg'];
    fc.assert(
      fc.property(fc.constantFrom(...units), fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }), (u, ups) => {
        const mixed = [...u].map((ch, i) => (ups[i] ? ch.toUpperCase() : ch)).join('');
        const a = parseUnitSize(`7 ${u}`);
        const b = parseUnitSize(`7 ${mixed}`);
        return isKnown(a) && isKnown(b) && a.base.eq(b.base) && a.family === b.family;
      }),
    );
  });
});

describe('humanAmount', () => {
  const shown = (q: string, size: string) => {
    const t = totalAmount(q, size);
    if (!isKnown(t)) throw new Error('unknown');
    return humanAmount(t);
  };

  it.each([
    ['1', '2.5 L', '2.5 L'],
    ['3', '250 mL', '750 mL'],
    ['4', '300 g', '1.2 kg'],
    ['2', '20 µg', '40 µg'],
    ['5', '1 L', '5 L'],
    ['3', '500 tablets', '1,500 tablets'],
    ['1', '1 each', '1 piece'],
    ['2', '1 each', '2 pieces'],
    ['0', '1 L', '0 L'],
    ['1', '1 gal', '3.785 L'],
    ['1', '1 ng', '0.001 µg'],
    ['12', '2.5 L', '30 L'],
  ])('%s × %s reads %s', (q, size, text) => {
    expect(shown(q, size)).toBe(text);
  });
});

describe('sumAmounts', () => {
  it('adds per family and counts the unknown', () => {
    const totals = sumAmounts([
      totalAmount('2', '2.5 L'),
      totalAmount('1', '500 mL'),
      totalAmount('1', '1 kg'),
      totalAmount('1', '5 mg/mL'),
      totalAmount('2', '10 tablets'),
      totalAmount('1', '3 vials'),
    ]);
    expect(totals.volume?.base.toFixed()).toBe('5.5');
    expect(totals.mass?.base.toFixed()).toBe('1');
    expect(totals.count && humanAmount(totals.count)).toBe('23 pieces');
    expect(totals.unknown).toBe(1);
  });

  it('keeps the noun when every count is of the same thing', () => {
    const totals = sumAmounts([totalAmount('2', '10 tablets'), totalAmount('1', '5 tablets')]);
    expect(totals.count && humanAmount(totals.count)).toBe('25 tablets');
    expect(sumAmounts([])).toEqual({ unknown: 0 });
  });
});

describe('amountView', () => {
  it('gives the base figure and the words, or nulls when unknown', () => {
    expect(amountView(totalAmount('3', '250 mL'))).toEqual({ family: 'volume', amount: '0.75', unit: 'L', text: '750 mL' });
    expect(amountView(totalAmount('3', 'a box'))).toEqual({ family: 'unknown', amount: null, unit: null, text: null });
  });
});
