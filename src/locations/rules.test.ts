import { describe, expect, it } from 'vitest';
import { fitsDepth, MAX_LOCATION_DEPTH, pathNamesOf } from './rules.js';

describe('location rules', () => {
  it('allows exactly seven levels', () => {
    expect(MAX_LOCATION_DEPTH).toBe(7);
    expect(fitsDepth(6, 1)).toBe(true);
    expect(fitsDepth(7, 1)).toBe(false);
  });

  it('counts the height of a moved subtree', () => {
    expect(fitsDepth(4, 3)).toBe(true);
    expect(fitsDepth(4, 4)).toBe(false);
    expect(fitsDepth(0, 7)).toBe(true);
  });

  it('orders a chain root first, leaf last', () => {
    expect(pathNamesOf([{ name: 'Shelf 2', depth: 0 }, { name: 'Room 101', depth: 2 }, { name: 'Freezer A', depth: 1 }])).toEqual(['Room 101', 'Freezer A', 'Shelf 2']);
  });
});
