import { expect } from 'vitest';
import { holdingsFromScratch, type ItemHolding, storedHoldings } from '../../src/hazards/holdings-repository.js';
import type { Executor } from '../../src/shared/db/database.js';
import { dec } from '../../src/shared/decimal.js';

// location_holdings and location_holding_items keep running totals (src/hazards/holdings-repository.ts): after any
// writes they must equal what the containers add up to now.
const key = (r: Omit<ItemHolding, 'item_id' | 'containers' | 'quantity'>) =>
  `${r.location_id} | ${r.unit_size} | ${r.hazard_codes} | ${r.storage}`;

export async function expectHoldingsTrue(ex: Executor, where = ''): Promise<void> {
  const [stored, scratch] = [await storedHoldings(ex), await holdingsFromScratch(ex)];
  const totals = new Map<string, { containers: number; quantity: string }>();
  for (const r of scratch) {
    const t = totals.get(key(r)) ?? { containers: 0, quantity: '0' };
    totals.set(key(r), { containers: t.containers + r.containers, quantity: dec(t.quantity).plus(r.quantity).toFixed() });
  }
  expect(
    stored.totals.map((r) => `${key(r)} | ${r.containers} | ${r.quantity}`).sort(),
    `location_holdings drifted from the containers ${where}`,
  ).toEqual([...totals].map(([k, t]) => `${k} | ${t.containers} | ${t.quantity}`).sort());
  expect(
    stored.items.map((r) => `${key(r)} | ${r.item_id} | ${r.containers}`).sort(),
    `location_holding_items drifted from the containers ${where}`,
  ).toEqual(scratch.map((r) => `${key(r)} | ${r.item_id} | ${r.containers}`).sort());
}
