import { type Amount, type Contribution, type LimitView, tally } from '../hazards/control-area-rules.js';
import { classify } from '../hazards/rules.js';
import { isKnown, totalAmount } from '../shared/amounts.js';
import type { Executor } from '../shared/db/database.js';
import { activeInstancesOfItemsAt, type HeldGroup, heldGroupsAt } from './placement-repository.js';

// What a control area holds, as the meter and the limit check count it (docs/safety.md, issue 26 bench): one
// contribution per group of containers that share a unit size and the hazard statements in force, their
// quantities summed. It adds up to exactly what one contribution per container would (the amount is quantity x
// unit size; the classes come from the statements). Only a group some limit cannot count (its amount unknown
// for a category: an unparsed unit size, a liquid sized by mass) is listed container by container, as the meter
// names each container whose amount is not known.

const amountOf = (quantity: string, unitSize: string | null): Amount | null => {
  const a = totalAmount(quantity, unitSize);
  return isKnown(a) ? { family: a.family, value: a.base.toFixed() } : null;
};

const classesOf = (codes: string | null) =>
  codes ? classify(codes.split(' ')).classes.map((c) => ({ id: c.id, category: c.category })) : [];

export interface AreaHoldings {
  contributions: Contribution[];
  /** The items with a container in the area. */
  itemIds: () => Set<string>;
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
  const groups = await heldGroupsAt(ex, locationIds);
  const contributions: Contribution[] = [];
  const itemised: { group: HeldGroup; classes: Contribution['classes'] }[] = [];
  for (const group of groups) {
    const classes = classesOf(group.codes);
    if (classes.length === 0) continue;
    const c: Contribution = { instanceId: null, itemId: null, itemName: '', classes, amount: amountOf(group.quantity, group.unit_size) };
    if (listUnknown && [...tally([c], limits).values()].some((t) => t.unknown.length > 0)) itemised.push({ group, classes });
    else contributions.push(c);
  }
  for (const { group, classes } of itemised) {
    for (const r of await activeInstancesOfItemsAt(ex, locationIds, group.item_ids.split(' ')))
      contributions.push({
        instanceId: r.instance_id,
        itemId: r.item_id,
        itemName: r.name,
        classes,
        amount: amountOf(r.quantity, r.unit_size),
      });
  }
  return { contributions, itemIds: () => new Set(groups.flatMap((g) => g.item_ids.split(' '))) };
}
