import { describe, expect, it } from 'vitest';
import { amountOfLimit, ancestorsOf, level, limitName, overBy, share, unknownRest } from '../../web/src/components/places/words.js';

// The control area's meter and limits in words (docs/safety.md, "In the app").

const line = (amount: string, limit: string, over = Number(amount) > Number(limit)) => ({ amount, limit, over, unit: 'L' });

describe('the meter in words', () => {
  it('says the amount against the limit in units', () => {
    expect(amountOfLimit(line('18', '20'))).toBe('18 L of 20 L');
  });
  it('is fine below 80 %, near from 80 %, over above the limit', () => {
    expect(level(line('15.9', '20'))).toBe('fine');
    expect(level(line('16', '20'))).toBe('near');
    expect(level(line('20', '20'))).toBe('near');
    expect(level(line('20.5', '20'))).toBe('over');
  });
  it('fills the bar to the share used, never past full; a zero limit is full once anything is stored', () => {
    expect(share(line('5', '20'))).toBe(25);
    expect(share(line('30', '20'))).toBe(100);
    expect(share(line('0', '0'))).toBe(0);
    expect(share(line('1', '0'))).toBe(100);
  });
  it('says how far over without float noise', () => {
    expect(overBy(line('20.3', '20.1'))).toBe('0.2 L over the limit');
  });
  it('names the state only where the class has several', () => {
    const all = [
      { category: 'corrosive', state: 'solid' as const, label: 'Corrosives' },
      { category: 'corrosive', state: 'liquid' as const, label: 'Corrosives' },
      { category: 'flammable-liquid-ib-ic', state: 'liquid' as const, label: 'Flammable liquids IB and IC' },
    ];
    expect(limitName(all[1]!, all)).toBe('Corrosives, liquids');
    expect(limitName(all[2]!, all)).toBe('Flammable liquids IB and IC');
  });
  it('says how many items and containers of unknown amount it does not name', () => {
    const named = [{}, {}];
    expect(unknownRest({ unknown_containers: 3, unknown_items: named, unknown_items_count: 2 })).toBe('');
    expect(unknownRest({ unknown_containers: 214, unknown_items: named, unknown_items_count: 40 })).toBe(
      'and 38 more items (214 containers in all)',
    );
    expect(unknownRest({ unknown_containers: 3, unknown_items: named, unknown_items_count: 3 })).toBe(
      'and 1 more item (3 containers in all)',
    );
  });
  it('walks up to the root, nearest first, and stops at a cycle', () => {
    const l = (id: string, parent_id: string | null) => ({ id, name: id, parent_id, pathNames: [id] });
    expect(ancestorsOf([l('room', null), l('cabinet', 'room'), l('shelf', 'cabinet')], 'shelf').map((a) => a.id)).toEqual([
      'cabinet',
      'room',
    ]);
    expect(ancestorsOf([l('a', 'b'), l('b', 'a')], 'a').map((x) => x.id)).toEqual(['b']);
  });
});
