import { describe, expect, it } from 'vitest';
import { dec } from '../shared/decimal.js';
import { isOverBudget, periodOf, spendByCurrency } from './spend-rules.js';

describe('periodOf', () => {
  it('gives calendar months, quarters and years in UTC, with the half-open instants that belong to them', () => {
    expect(periodOf('2026-02-14', 'month')).toEqual({
      start: '2026-02-01',
      end: '2026-02-28',
      from: '2026-02-01T00:00:00.000Z',
      until: '2026-03-01T00:00:00.000Z',
    });
    expect(periodOf('2028-02-29T23:59:59.999Z', 'month').end).toBe('2028-02-29');
    expect(periodOf('2026-05-31', 'quarter')).toMatchObject({ start: '2026-04-01', end: '2026-06-30' });
    expect(periodOf('2026-12-31T23:59:59.999Z', 'quarter')).toMatchObject({
      start: '2026-10-01',
      end: '2026-12-31',
      until: '2027-01-01T00:00:00.000Z',
    });
    expect(periodOf('2026-01-01T00:00:00.000Z', 'year')).toMatchObject({ start: '2026-01-01', end: '2026-12-31' });
  });

  it('puts the last millisecond of a period in it and the next one in the next', () => {
    const jan = periodOf('2026-01-31T23:59:59.999Z', 'month');
    expect(jan.start).toBe('2026-01-01');
    expect('2026-01-31T23:59:59.999Z' < jan.until).toBe(true);
    expect(periodOf('2026-02-01T00:00:00.000Z', 'month').start).toBe('2026-02-01');
  });
});

describe('spend', () => {
  it('adds exactly, per currency', () => {
    const totals = spendByCurrency([
      { unit_price: '0.10', quantity: '3', currency: 'USD' },
      { unit_price: '0.20', quantity: '1', currency: 'USD' },
      { unit_price: '1000', quantity: '1', currency: 'JPY' },
    ]);
    expect(totals.get('USD')!.toFixed()).toBe('0.5');
    expect(totals.get('JPY')!.toFixed()).toBe('1000');
  });

  it('is over budget only beyond it', () => {
    expect(isOverBudget(dec('100.00'), dec('100'))).toBe(false);
    expect(isOverBudget(dec('100.01'), dec('100'))).toBe(true);
  });
});
