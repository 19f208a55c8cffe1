import { describe, expect, it } from 'vitest';
import {
  computeCharges,
  estimatedDates,
  isFullyDelivered,
  newOrderKey,
  REQUEST_STATUS_OF_LINE,
  refuseBackorder,
  refuseCancel,
  refuseShipment,
  statusAfterShipment,
} from './rules.js';

const line = (over: Partial<{ status: any; quantity: number; shipped: number; delivered: number }> = {}) => ({
  status: 'PLACED' as const,
  quantity: 5,
  shipped: 0,
  delivered: 0,
  ...over,
});

describe('line rules', () => {
  it('ships up to what is left, never from a closed line', () => {
    expect(refuseShipment(line(), 5)).toBeNull();
    expect(refuseShipment(line({ shipped: 3 }), 3)).toBe('only 2 of 5 are left to ship');
    expect(refuseShipment(line({ shipped: 5, status: 'SHIPPED' }), 1)).toBe('the whole quantity has already shipped');
    expect(refuseShipment(line({ status: 'CANCELLED' }), 1)).toBe('the line is CANCELLED');
    expect(refuseShipment(line({ status: 'INDEFINITELY_BACKORDERED' }), 1)).toBeNull();
  });

  it('is SHIPPED only once everything has shipped', () => {
    expect(statusAfterShipment(line(), 4)).toBe('PLACED');
    expect(statusAfterShipment(line({ status: 'BACKORDERED' }), 2)).toBe('BACKORDERED');
    expect(statusAfterShipment(line({ shipped: 4 }), 1)).toBe('SHIPPED');
  });

  it('backorders and cancels only what has not shipped', () => {
    expect(refuseBackorder(line({ shipped: 2 }))).toBeNull();
    expect(refuseBackorder(line({ shipped: 5 }))).toBe('the whole quantity has already shipped');
    expect(refuseCancel(line({ status: 'BACKORDERED' }))).toBeNull();
    expect(refuseCancel(line({ shipped: 1 }))).toBe('1 of 5 already shipped');
    expect(refuseCancel(line({ status: 'DELIVERED' }))).toBe('the line is DELIVERED');
  });

  it('is delivered when every unit arrived, and the request follows', () => {
    expect(isFullyDelivered(line({ delivered: 4 }))).toBe(false);
    expect(isFullyDelivered(line({ delivered: 5 }))).toBe(true);
    expect(REQUEST_STATUS_OF_LINE).toEqual({
      PLACED: 'ORDERED',
      SHIPPED: 'ORDERED',
      BACKORDERED: 'BACKORDERED',
      INDEFINITELY_BACKORDERED: 'BACKORDERED',
      DELIVERED: 'RECEIVED',
      CANCELLED: 'CANCELLED',
    });
  });
});

describe('charges', () => {
  it('adds exactly in minor units and rounds tax half-even', () => {
    expect(computeCharges([{ unitMinor: '1', quantity: 1 }], 'USD', { shipping: '0', handling: '0', taxRate: '0.5' })).toEqual({
      subtotal: '1',
      shipping: '0',
      handling: '0',
      tax: '0',
      total: '1',
    });
    expect(computeCharges([{ unitMinor: '3', quantity: 1 }], 'USD', { shipping: '0', handling: '0', taxRate: '0.5' }).tax).toBe('2');
    expect(
      computeCharges(
        [
          { unitMinor: '1999', quantity: 3 },
          { unitMinor: '1', quantity: 1 },
        ],
        'USD',
        { shipping: '0.10', handling: '0.20', taxRate: '0' },
      ),
    ).toEqual({ subtotal: '5998', shipping: '10', handling: '20', tax: '0', total: '6028' });
    expect(computeCharges([{ unitMinor: '100', quantity: 1 }], 'KWD', { shipping: '1.5', handling: '0', taxRate: '0' }).shipping).toBe(
      '1500',
    );
  });
});

describe('keys, dates', () => {
  it('makes unambiguous keys', () => {
    const keys = new Set(Array.from({ length: 200 }, () => newOrderKey(new Date('2026-03-01T00:00:00Z'))));
    for (const k of keys) expect(k).toMatch(/^SO-2026-[0-9A-HJKMNP-TV-Z]{6}$/);
    expect(keys.size).toBeGreaterThan(190);
  });
  it('estimates across month ends', () => {
    expect(estimatedDates('2026-02-27', 2)).toEqual({ shipment: '2026-03-01', delivery: '2026-03-04' });
  });
});
