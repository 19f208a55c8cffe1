import { type Amount, type Contribution, type LimitView, tally, type UnknownItem } from '../hazards/control-area-rules.js';
import { holdingsAt, itemsHeldAt, itemsOfHoldings } from '../hazards/holdings-reads-repository.js';
import { classify } from '../hazards/rules.js';
import { isKnown, totalAmount } from '../shared/amounts.js';
import type { Executor } from '../shared/db/database.js';

// What a control area holds, as the meter and the limit check count it (docs/safety.md, issue 26 bench): one
// contribution per group of containers that share a unit size and the hazard statements in force, their
// quantities summed: the running totals of location_holdings (src/hazards/holdings-repository.ts). It adds up to
// exactly what one contribution per container would (the amount is quantity x unit size; the classes come from the
// statements). A group some limit cannot count (its amount unknown for a category: an unparsed unit size, a liquid
// sized by mass) carries the items that make it up, with their containers, for the meter to name.

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
// it holds: asked once per holding and set of limits (an area's limits are one object per distinct row,
// src/hazards/control-area.ts limitsOfArea, so they key a WeakMap without being read).
const unknownFor = new WeakMap<readonly LimitView[], Map<string, boolean>>();
function someUnknown(group: { unit_size: string; hazard_codes: string }, c: Contribution, limits: readonly LimitView[]) {
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

export interface AreaHoldings {
  contributions: Contribution[];
  /** Which of these items have a container in the area. */
  heldAmong: (itemIds: readonly string[]) => Promise<Set<string>>;
}

/**
 * The contributions of what is stored at these locations (a control area's subtree). With `listUnknown` (the
 * meter), a group whose amount is unknown for some limit carries its items; a limit check only sums.
 */
export async function areaHoldings(
  ex: Executor,
  locationIds: readonly string[],
  limits: readonly LimitView[],
  listUnknown: boolean,
): Promise<AreaHoldings> {
  const groups = await holdingsAt(ex, locationIds);
  const contributions: Contribution[] = [];
  const itemised = new Map<string, Contribution & { items: UnknownItem[] }>();
  for (const group of groups) {
    const classes = classesOf(group.hazard_codes);
    if (classes.length === 0) continue;
    const amount = amountOf(group.quantity, group.unit_size || null);
    const c: Contribution = { instanceId: null, itemId: null, itemName: '', classes, amount, containers: group.containers };
    if (listUnknown && someUnknown(group, c, limits)) {
      const named = { ...c, items: [] as UnknownItem[] };
      itemised.set(`${group.unit_size}\u0000${group.hazard_codes}`, named);
      contributions.push(named);
    } else contributions.push(c);
  }
  const keys = [...itemised.keys()].map((k) => {
    const [unit_size, hazard_codes] = k.split('\u0000');
    return { unit_size: unit_size!, hazard_codes: hazard_codes! };
  });
  for (const r of await itemsOfHoldings(ex, locationIds, keys))
    itemised.get(`${r.unit_size}\u0000${r.hazard_codes}`)!.items.push({ item_id: r.item_id, item_name: r.name, containers: r.containers });
  return { contributions, heldAmong: (itemIds) => itemsHeldAt(ex, locationIds, itemIds) };
}
