import { describe, expect, it } from 'vitest';
import { fitsDepth, MAX_LOCATION_DEPTH, readAncestry, subtreeHeight } from './rules.js';

const step = (id: string, parent_id: string | null, depth: number) => ({ id, parent_id, name: `N${id}`, depth });

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

  it('orders a chain root first, leaf last, with its depth', () => {
    const chain = [
      { id: 's', parent_id: 'f', name: 'Shelf 2', depth: 0 },
      { id: 'r', parent_id: null, name: 'Room 101', depth: 2 },
      { id: 'f', parent_id: 'r', name: 'Freezer A', depth: 1 },
    ];
    expect(readAncestry(chain)).toEqual({ pathNames: ['Room 101', 'Freezer A', 'Shelf 2'], depth: 3, cyclic: false });
  });

  it('stops a stored cycle at the first location seen twice', () => {
    // a under c, c under a: the query walks a, c, a, c, ... until its depth bound.
    const chain = Array.from({ length: 9 }, (_, i) => (i % 2 === 0 ? step('a', 'c', i) : step('c', 'a', i)));
    expect(readAncestry(chain)).toEqual({ pathNames: ['Nc', 'Na'], depth: null, cyclic: true });
  });

  it('keeps the nearest seven names of an over-deep path, and knows its depth or that it has none', () => {
    const eight = Array.from({ length: 8 }, (_, i) => step(String(i), i === 7 ? null : String(i + 1), i));
    expect(readAncestry(eight)).toEqual({ pathNames: ['N6', 'N5', 'N4', 'N3', 'N2', 'N1', 'N0'], depth: 8, cyclic: false });
    const cut = Array.from({ length: 9 }, (_, i) => step(String(i), String(i + 1), i)); // the walk ended before a root
    expect(readAncestry(cut)).toMatchObject({ depth: null, cyclic: false });
    expect(readAncestry(cut).pathNames).toHaveLength(7);
  });

  it("measures a subtree by each location's nearest distance (a stored cycle counts once)", () => {
    expect(subtreeHeight([{ id: 'a', depth: 0 }])).toBe(1);
    expect(
      subtreeHeight([
        { id: 'a', depth: 0 },
        { id: 'b', depth: 1 },
        { id: 'c', depth: 2 },
        { id: 'd', depth: 1 },
      ]),
    ).toBe(3);
    expect(
      subtreeHeight([
        { id: 'a', depth: 0 },
        { id: 'c', depth: 1 },
        { id: 'a', depth: 2 },
        { id: 'c', depth: 3 },
      ]),
    ).toBe(2);
  });
});
