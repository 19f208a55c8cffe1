import { type Amount, type Contribution, type LimitView, tally } from '../hazards/control-area-rules.js';
import { containersOfHoldings, holdingsAt, itemsHeldAt } from '../hazards/holdings-reads-repository.js';
import { classify } from '../hazards/rules.js';
import { isKnown, totalAmount } from '../shared/amounts.js';
import type { Executor } from '../shared/db/database.js';

// What a control area holds, as the meter and the limit check count it (docs/safety.md, issue 26 bench): one
// contribution per group of containers that share a unit size and the hazard statements in force, their
// quantities summed: the running totals of location_holdings (src/inventory/holdings-repository.ts). It adds up to exactly what one contribution per container would (the amount is quantity x
// unit size; the classes come from the statements). Only a group some limit cannot count (its amount unknown
// for a category: an unparsed unit size, a liquid sized by mass) is listed container by container, as the meter
// names each container whose amount is not known.

const amountOf = (quantity: string, unitSize: string | null): Amount | null => {
  const a = totalAmount(quantity, unitSize);
  return isKnown(a) ? { family: a.family, value: a.base.toFixed() } : null;
};

// A few statement sets recur in every request: classified once each (the rules table is fixed in a release).
const classified = new Map<string, Contribution['classes']>();
const classesOf = (codes: string): Contribution['classes'] => {
  let c = classified.get(codes);
  if (!c) {
    c = codes ? classify(codes.split(' ')).classes.map((x) => ({ id: x.id, category: x.category })) : [];
    if (classified.size > 10_000) classified.clear();
    classified.set(codes, c);
  }
  return c;
};

// Whether some limit cannot count a holding depends on its statements and its unit size's family, not on how much
// it holds: asked once per holding and set of limits.
const unknownFor = new Map<string, boolean>();
function someUnknown(group: { unit_size: string; hazard_codes: string }, c: Contribution, limits: readonly LimitView[], limitsKey: string) {
  const key = `${limitsKey}\u0000${group.unit_size}\u0000${group.hazard_codes}`;
  let unknown = unknownFor.get(key);
  if (unknown === undefined) {
    unknown = [...tally([c], limits).values()].some((t) => t.unknown.length > 0);
    if (unknownFor.size > 10_000) unknownFor.clear();
    unknownFor.set(key, unknown);
  }
  return unknown;
}

export interface AreaHoldings {
  contributions: Contribution[];
  /** Which of these items have a container in the area. */
  heldAmong: (itemIds: readonly string[]) => Promise<Set<string>>;
}

/**
 * The contributions of what is stored at these locations (a control area's subtree). With `listUnknown` (the
 * meter), the groups whose amount is unknown for some limit come container by container; a limit check only sums.
 */
export async function areaHoldings(
  ex: Executor,
  locationIds: readonly string[],
  limits: readonly LimitView[],
  listUnknown: boolean,
): Promise<AreaHoldings> {
  const groups = await holdingsAt(ex, locationIds);
  const limitsKey = listUnknown ? JSON.stringify(limits) : '';
  const contributions: Contribution[] = [];
  const itemised: (typeof groups)[number][] = [];
  for (const group of groups) {
    const classes = classesOf(group.hazard_codes);
    if (classes.length === 0) continue;
    const amount = amountOf(group.quantity, group.unit_size || null);
    const c: Contribution = { instanceId: null, itemId: null, itemName: '', classes, amount };
    if (listUnknown && someUnknown(group, c, limits, limitsKey)) itemised.push(group);
    else contributions.push(c);
  }
  for (const r of await containersOfHoldings(ex, locationIds, itemised))
    contributions.push({
      instanceId: r.instance_id,
      itemId: r.item_id,
      itemName: r.name,
      classes: classesOf(r.hazard_codes),
      amount: amountOf(r.quantity, r.unit_size),
    });
  return { contributions, heldAmong: (itemIds) => itemsHeldAt(ex, locationIds, itemIds) };
}
