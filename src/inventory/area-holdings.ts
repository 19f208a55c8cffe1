import { type Amount, type Contribution, type LimitView, tally } from '../hazards/control-area-rules.js';
import { containersOfHolding, holdingsAt, itemsHeldAt } from '../hazards/holdings-reads-repository.js';
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
  const contributions: Contribution[] = [];
  const itemised: { group: (typeof groups)[number]; classes: Contribution['classes'] }[] = [];
  for (const group of groups) {
    const classes = classesOf(group.hazard_codes);
    if (classes.length === 0) continue;
    const c: Contribution = {
      instanceId: null,
      itemId: null,
      itemName: '',
      classes,
      amount: amountOf(group.quantity, group.unit_size || null),
    };
    if (listUnknown && [...tally([c], limits).values()].some((t) => t.unknown.length > 0)) itemised.push({ group, classes });
    else contributions.push(c);
  }
  for (const { group, classes } of itemised) {
    for (const r of await containersOfHolding(ex, locationIds, group))
      contributions.push({
        instanceId: r.instance_id,
        itemId: r.item_id,
        itemName: r.name,
        classes,
        amount: amountOf(r.quantity, r.unit_size),
      });
  }
  return { contributions, heldAmong: (itemIds) => itemsHeldAt(ex, locationIds, itemIds) };
}
