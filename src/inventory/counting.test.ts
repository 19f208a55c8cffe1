import { describe, expect, it } from 'vitest';
import { quantityAfterCount } from './counting.js';

// What a stocktake's apply sets (docs/stocktake.md, "The quantity a count sets").
describe('the quantity a count sets', () => {
  it('is the counted quantity when nothing changed since the count', () => {
    expect(quantityAfterCount('5', '4')).toBe('4');
    expect(quantityAfterCount('5', '4', '5')).toBe('4');
    expect(quantityAfterCount('0.1', '0.3', '0.1')).toBe('0.3');
  });

  it('keeps what was recorded after the count: the difference found is added to the quantity now', () => {
    // Counted 4 where 5 was recorded (one short); 2 used since: 3 left, one short of that is 2.
    expect(quantityAfterCount('3', '4', '5')).toBe('2');
    expect(quantityAfterCount('7', '6', '5')).toBe('8');
  });

  it('never goes below zero', () => {
    expect(quantityAfterCount('1', '0', '5')).toBe('0');
    expect(quantityAfterCount('0', '0')).toBe('0');
  });
});
