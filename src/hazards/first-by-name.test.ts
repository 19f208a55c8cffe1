import { describe, expect, it } from 'vitest';
import type { UnknownItem } from './control-area-rules.js';
import { firstByName } from './first-by-name.js';

const byName = (a: UnknownItem, b: UnknownItem) =>
  a.item_name.localeCompare(b.item_name) || (a.item_id ?? '').localeCompare(b.item_id ?? '');

// A seeded generator: the same names on every run.
let seed = 7;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

describe('firstByName', () => {
  it('gives what sorting every item and keeping the first n gives', () => {
    const names = ['Acetone', 'acetone', 'Éthanol', 'Ethanol', 'ethanol', 'Zinc', 'Äther', '2-Propanol', '10-Undecenal', 'Xylene'];
    for (let round = 0; round < 50; round++) {
      const items: UnknownItem[] = Array.from({ length: 1 + Math.floor(random() * 80) }, (_, i) => ({
        // Some items share a name (told apart by id), some have no item (one entry per name).
        item_id: random() < 0.1 ? null : `item-${Math.floor(random() * 1e6)}-${i}`,
        item_name: `${names[Math.floor(random() * names.length)]}${random() < 0.5 ? '' : ` ${Math.floor(random() * 20)}`}`,
        containers: 1,
      }));
      const unique = [...new Map(items.map((u) => [u.item_id ?? `\u0000${u.item_name}`, u])).values()];
      for (const n of [0, 1, 3, 10, unique.length, unique.length + 5, Number.POSITIVE_INFINITY]) {
        expect(firstByName(unique, n)).toEqual([...unique].sort(byName).slice(0, n));
      }
    }
  });

  it('takes any iterable once, as a Map of a tally gives it', () => {
    const m = new Map([
      ['b', { item_id: 'b', item_name: 'Beta', containers: 2 }],
      ['a', { item_id: 'a', item_name: 'Alpha', containers: 1 }],
      ['c', { item_id: 'c', item_name: 'Gamma', containers: 4 }],
    ]);
    expect(firstByName(m.values(), 2).map((u) => u.item_name)).toEqual(['Alpha', 'Beta']);
  });
});
