import { expect } from 'vitest';
import { type Holding, holdingsFromScratch, storedHoldings } from '../../src/hazards/holdings-repository.js';
import type { Executor } from '../../src/shared/db/database.js';

// location_holdings keeps running totals (src/hazards/holdings-repository.ts): after any writes they must equal what
// the containers add up to now.
const sorted = (rows: Holding[]) =>
  rows.map((r) => `${r.location_id} | ${r.unit_size} | ${r.hazard_codes} | ${r.containers} | ${r.quantity}`).sort();

export async function expectHoldingsTrue(ex: Executor, where = ''): Promise<void> {
  const [stored, scratch] = [await storedHoldings(ex), await holdingsFromScratch(ex)];
  expect(sorted(stored), `location_holdings drifted from the containers ${where}`).toEqual(sorted(scratch));
}
