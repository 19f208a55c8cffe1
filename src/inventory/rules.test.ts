import { describe, expect, it } from 'vitest';
import { etagOf, ifMatchSatisfied, itemQuantity } from './rules.js';

describe('item quantity', () => {
  it('sums instances exactly in a migrated lab', () => {
    expect(itemQuantity(true, '99', ['0.1', '0.2'])).toBe('0.3');
    expect(itemQuantity(true, '99', [])).toBe('0');
    expect(itemQuantity(true, '0', ['12345678901234567890.1', '0.0000000001'])).toBe('12345678901234567890.1000000001');
  });

  it("keeps the item's own quantity in a legacy lab", () => {
    expect(itemQuantity(false, '7.5', ['1'])).toBe('7.5');
  });
});

describe('If-Match', () => {
  it('passes without a header or with *', () => {
    expect(ifMatchSatisfied(undefined, 3)).toBe(true);
    expect(ifMatchSatisfied('*', 3)).toBe(true);
  });

  it('compares strongly, accepting a list', () => {
    expect(ifMatchSatisfied(etagOf(3), 3)).toBe(true);
    expect(ifMatchSatisfied(`"v1", ${etagOf(3)}`, 3)).toBe(true);
    expect(ifMatchSatisfied(etagOf(2), 3)).toBe(false);
    expect(ifMatchSatisfied(`W/${etagOf(3)}`, 3)).toBe(false);
  });
});
