import { describe, expect, it } from 'vitest';
import type { InventoryItem } from '../inventory/schemas.js';
import { belowMinimumOf, conditionsOf, expiringOf, horizonOf, latestHorizon, utcDate } from './rules.js';

const item = (over: Partial<InventoryItem> & { usesInstances?: boolean } = {}): InventoryItem => {
  const { usesInstances = false, ...rest } = over;
  return {
    id: 'i1',
    name: 'Buffer',
    quantity: '3',
    auto_reminder: '1WEEK',
    expiration_date: null,
    instances: [],
    lab: { id: 'l1', name: 'Lab', organization: { id: 'o1', name: 'Org' }, uses_instances: usesInstances },
    ...rest,
  } as InventoryItem;
};
const instance = (id: string, expiration_date: string | null) => ({ id, quantity: '1', lot_number: null, expiration_date, location: null });

describe('reminder windows', () => {
  it('adds days for the week windows and calendar months (clamped to the month end) for the month windows', () => {
    expect(horizonOf('1WEEK', '2026-03-28')).toBe('2026-04-04');
    expect(horizonOf('2WEEK', '2026-12-25')).toBe('2027-01-08');
    expect(horizonOf('1MONTH', '2026-01-31')).toBe('2026-02-28');
    expect(horizonOf('1MONTH', '2028-01-31')).toBe('2028-02-29');
    expect(horizonOf('3MONTH', '2026-11-30')).toBe('2027-02-28');
    expect(horizonOf('3MONTH', '2026-05-15')).toBe('2026-08-15');
  });

  it('sets no reminder for NONE, null or a value it does not know', () => {
    for (const r of ['NONE', null, 'monthly', '', '1week']) expect(horizonOf(r, '2026-05-15'), String(r)).toBeNull();
  });

  it('takes the farthest window as the first filter, and today in UTC', () => {
    expect(latestHorizon('2026-05-15')).toBe('2026-08-15');
    expect(utcDate(new Date('2026-05-15T23:59:59.999Z'))).toBe('2026-05-15');
  });
});

describe('expiring', () => {
  const today = '2026-05-15';
  it('fires for a legacy item whose own expiry is within its window (the horizon day included, past ones too), not after it', () => {
    expect(expiringOf(item({ expiration_date: '2026-05-22' }), today)?.alert).toEqual({
      cause: 'expiring',
      auto_reminder: '1WEEK',
      expiration_date: '2026-05-22',
      instance_ids: [],
      minimum_quantity: null,
      quantity: '3',
    });
    expect(expiringOf(item({ expiration_date: '2026-01-01' }), today)?.alert.expiration_date).toBe('2026-01-01');
    expect(expiringOf(item({ expiration_date: '2026-05-23' }), today)).toBeNull();
    expect(expiringOf(item({ expiration_date: '2026-05-23', auto_reminder: '2WEEK' }), today)).not.toBeNull();
    expect(expiringOf(item({ expiration_date: '2026-05-16', auto_reminder: 'NONE' }), today)).toBeNull();
    expect(expiringOf(item({ expiration_date: null }), today)).toBeNull();
  });

  it("applies the item's reminder to each active instance in a lab that uses them, naming those within the window", () => {
    const migrated = item({
      usesInstances: true,
      auto_reminder: '1MONTH',
      instances: [instance('a', '2026-06-20'), instance('b', '2026-06-10'), instance('c', null), instance('d', '2026-05-01')],
    });
    const hit = expiringOf(migrated, today)!;
    expect(hit.alert.instance_ids).toEqual(['b', 'd']);
    expect(hit.alert.expiration_date).toBe('2026-05-01');
    expect(expiringOf(item({ usesInstances: true, instances: [instance('a', '2026-06-20')] }), today)).toBeNull();
  });
});

describe('below minimum', () => {
  it('fires strictly below a set minimum, with the quantity and the minimum', () => {
    expect(belowMinimumOf(item({ quantity: '0.5' }), '1')?.alert).toEqual({
      cause: 'below_minimum',
      auto_reminder: '1WEEK',
      expiration_date: null,
      instance_ids: [],
      minimum_quantity: '1',
      quantity: '0.5',
    });
    expect(belowMinimumOf(item({ quantity: '1.0' }), '1')).toBeNull();
    expect(belowMinimumOf(item({ quantity: '0' }), null)).toBeNull();
  });

  it('lists both conditions when both hold', () => {
    const both = conditionsOf(item({ quantity: '0', expiration_date: '2026-05-15' }), '2', '2026-05-15');
    expect(both.map((c) => c.cause)).toEqual(['expiring', 'below_minimum']);
  });
});
