import { describe, expect, it } from 'vitest';
import { decimalSeparator, parseDecimal } from '../../web/src/forms/decimal.js';

describe('parseDecimal', () => {
  it('keeps what is typed: 2.5 stays 2.5, spaces around are ignored', () => {
    expect(parseDecimal('2.5', {}, 'en-US')).toEqual({ value: '2.5' });
    expect(parseDecimal(' 7 ', {}, 'en-US')).toEqual({ value: '7' });
    expect(parseDecimal('02.50', {}, 'en-US')).toEqual({ value: '2.50' });
  });
  it('accepts a decimal comma where the locale writes one, and explains it where it does not', () => {
    expect(decimalSeparator('de-DE')).toBe(',');
    expect(parseDecimal('5,5', {}, 'de-DE')).toEqual({ value: '5.5' });
    expect(parseDecimal('5,5', {}, 'en-US').error).toMatch(/point/);
    expect(parseDecimal('1.000,5', {}, 'de-DE').error).toMatch(/thousands/);
  });
  it('refuses what the field cannot take with a sentence, never clamping', () => {
    expect(parseDecimal('0', {}, 'en-US').error).toMatch(/above zero/);
    expect(parseDecimal('0', { allowZero: true }, 'en-US')).toEqual({ value: '0' });
    expect(parseDecimal('2.5', { integer: true }, 'en-US').error).toMatch(/whole/);
    expect(parseDecimal('5', { max: 2 }, 'en-US').error).toBe('At most 2 here.');
    expect(parseDecimal('abc', {}, 'en-US').error).toMatch(/number/);
    expect(parseDecimal('', {}, 'en-US').error).toMatch(/Enter/);
    expect(parseDecimal('', { optional: true }, 'en-US')).toEqual({});
  });
  it('takes signed changes only when asked', () => {
    expect(parseDecimal('-0.2', {}, 'en-US').error).toMatch(/above zero/);
    expect(parseDecimal('-0.2', { allowNegative: true }, 'en-US')).toEqual({ value: '-0.2' });
    expect(parseDecimal('−0.2', { allowNegative: true }, 'en-US')).toEqual({ value: '-0.2' });
  });
});
