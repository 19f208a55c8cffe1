import { describe, expect, it } from 'vitest';
import { checkTransition, emitsOrdered, TRANSITIONS } from './rules.js';
import { ORDER_STATUSES } from './schemas.js';

describe('order request transitions', () => {
  it('follows the table for every pair of statuses', () => {
    const allowed = new Set(Object.entries(TRANSITIONS).flatMap(([from, tos]) => tos.map((to) => `${from}>${to}`)));
    expect(allowed.size).toBe(12);
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        const result = checkTransition(from, to);
        if (from === to) expect(result.kind).toBe('same');
        else expect(result.kind).toBe(allowed.has(`${from}>${to}`) ? 'allowed' : 'refused');
      }
    }
  });

  it('names the allowed targets when refusing', () => {
    expect(checkTransition('CREATED', 'RECEIVED')).toEqual({ kind: 'refused', allowed: ['APPROVED', 'ORDERED', 'CANCELLED'] });
    expect(checkTransition('RECEIVED', 'CANCELLED')).toEqual({ kind: 'refused', allowed: [] });
  });

  it('emits ordered only on the first ordering', () => {
    expect(emitsOrdered('CREATED', 'ORDERED')).toBe(true);
    expect(emitsOrdered('APPROVED', 'ORDERED')).toBe(true);
    expect(emitsOrdered('BACKORDERED', 'ORDERED')).toBe(false);
  });
});
