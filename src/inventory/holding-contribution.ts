import { type Amount, type Contribution, type LimitView, tally } from '../hazards/control-area-rules.js';
import { classify } from '../hazards/rules.js';
import { isKnown, totalAmount } from '../shared/amounts.js';

// What one group of containers (a unit size and the hazard statements in force) contributes to an area's limits,
// for src/inventory/area-holdings.ts.

export const amountOf = (quantity: string, unitSize: string | null): Amount | null => {
  const a = totalAmount(quantity, unitSize);
  return isKnown(a) ? { family: a.family, value: a.base.toFixed() } : null;
};

// A few statement sets recur in every request: classified once each (the rules table is fixed in a release).
const classified = new Map<string, Contribution['classes']>();
export const classesOf = (codes: string): Contribution['classes'] => {
  let c = classified.get(codes);
  if (!c) {
    c = codes ? classify(codes.split(' ')).classes.map((x) => ({ id: x.id, category: x.category })) : [];
    if (classified.size > 10_000) classified.clear();
    classified.set(codes, c);
  }
  return c;
};

// Whether some limit cannot count a holding depends on its statements and its unit size's family, not on how much
// it holds: asked once per holding and set of limits (an area's limits are one object per distinct row,
// src/hazards/control-area.ts limitsOfArea, so they key a WeakMap without being read).
const unknownFor = new WeakMap<readonly LimitView[], Map<string, boolean>>();
export function someUnknown(group: { unit_size: string; hazard_codes: string }, c: Contribution, limits: readonly LimitView[]) {
  let known = unknownFor.get(limits);
  if (!known) {
    known = new Map<string, boolean>();
    unknownFor.set(limits, known);
  }
  const key = `${group.unit_size}\u0000${group.hazard_codes}`;
  let unknown = known.get(key);
  if (unknown === undefined) {
    unknown = [...tally([c], limits).values()].some((t) => t.unknownContainers > 0);
    if (known.size > 10_000) known.clear();
    known.set(key, unknown);
  }
  return unknown;
}
