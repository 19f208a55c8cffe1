import { describe, expect, it } from 'vitest';
import { ageInYears, reviewDueOn } from './sds.js';

// The stale-sheet pass's date rules (src/alerts/sds.ts), worked by hand.

describe('safety data sheet ages', () => {
  it('is due the same date SDS_REVIEW_YEARS later; 29 February falls on 1 March', () => {
    expect(reviewDueOn('2019-03-12', 5)).toBe('2024-03-12');
    expect(reviewDueOn('2020-02-29', 5)).toBe('2025-03-01');
  });

  it('counts whole years, the birthday included', () => {
    expect(ageInYears('2019-03-12', '2026-11-27')).toBe(7);
    expect(ageInYears('2019-12-01', '2026-11-27')).toBe(6);
    expect(ageInYears('2021-11-27', '2026-11-27')).toBe(5);
  });
});
