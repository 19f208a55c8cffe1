import { type Contribution, type LimitView, type Tally, tally, type UnknownItem } from '../hazards/control-area-rules.js';
import { holdingsAt, itemsHeldAt, itemsOfHoldings } from '../hazards/holdings-reads-repository.js';
import { type StampedSubtree, subtreeStamped } from '../locations/repository.js';
import type { Executor } from '../shared/db/database.js';
import { sumQuantities } from '../shared/decimal.js';
import { readAhead } from '../shared/read-ahead.js';
import { amountOf, classesOf, someUnknown } from './holding-contribution.js';

// What a control area holds, as the meter and the limit check count it (docs/safety.md, issue 26 bench): one
// contribution per group of containers that share a unit size and the hazard statements in force, their
// quantities summed: the running totals of location_holdings (src/hazards/holdings-repository.ts). It adds up to
// exactly what one contribution per container would (the amount is quantity x unit size; the classes come from the
// statements). A group some limit cannot count (its amount unknown for a category: an unparsed unit size, a liquid
// sized by mass) carries the items that make it up, with their containers, for the meter to name.

// What an area held when last read, per set of limits: the meter is asked far more often than an area changes, and
// summing it is most of a meter's cost (docs/performance.md, "The meter remembers"). Kept per location under its
// (rows, sum of versions) pair, read before the holdings themselves: a write committed in between makes what is
// kept newer than its key, never older, and that key is not read again (the pair only grows, migration 0045). When
// some locations changed, only theirs are read again and the sums of the groups they touch are added up again
// (docs/performance.md, "A changed area reads only what changed"). Kept only from reads outside a transaction: a
// transaction sees its own uncommitted rows, and a rolled-back one could leave behind a pair that a later commit
// reaches with other rows.
interface Group {
  unit_size: string;
  hazard_codes: string;
  containers: number;
  /** Exact decimal text. */
  quantity: string;
}
type ItemRow = Awaited<ReturnType<typeof itemsOfHoldings>>[number];
interface AreaState {
  stamps: ReadonlyMap<string, string>;
  /** Per location, its groups by unit size and statements. */
  groups: ReadonlyMap<string, ReadonlyMap<string, Group>>;
  /** The area's sums per unit size and statements. */
  totals: ReadonlyMap<string, Group>;
  /** The groups named item by item (the meter's), and per location the items that make them up there. */
  itemised: string;
  items: ReadonlyMap<string, readonly ItemRow[]>;
  /** The named groups' items over the area, with their containers (read-only once kept). */
  perItem: ReadonlyMap<string, ReadonlyMap<string, UnknownItem>>;
  namedContributions: ReadonlyMap<string, Contribution>;
  contributions: Contribution[];
}
const remembered = new WeakMap<readonly LimitView[], Map<string, AreaState>>();
const contributionOf = new WeakMap<Group, Contribution>();
const REMEMBERED_AREAS = 500;

const groupKey = (g: { unit_size: string; hazard_codes: string }) => `${g.unit_size}\u0000${g.hazard_codes}`;
/** The groups of an AreaState's `itemised` (group keys joined by U+0001). */
const keysOf = (itemised: string) =>
  itemised.split('\u0001').map((k) => {
    const [unit_size, hazard_codes] = k.split('\u0000');
    return { unit_size: unit_size!, hazard_codes: hazard_codes! };
  });

// What remembered holdings add up to per limit, for the checks (read-only once made; the contributions array is one
// per area, state of its rows and set of limits).
const tallies = new WeakMap<readonly Contribution[], Map<string, Tally>>();
export function talliesOf(contributions: readonly Contribution[], limits: readonly LimitView[]): ReadonlyMap<string, Tally> {
  let t = tallies.get(contributions);
  if (!t) {
    t = tally(contributions, limits);
    tallies.set(contributions, t);
  }
  return t;
}

export interface AreaHoldings {
  /** The area's locations: itself and everything below it. */
  ids: string[];
  contributions: Contribution[];
  /** Which of these items have a container in the area. */
  heldAmong: (itemIds: readonly string[]) => Promise<Set<string>>;
}

/**
 * The contributions of what is stored in a control area (the location and its subtree). With `listUnknown` (the
 * meter), a group whose amount is unknown for some limit carries its items; a limit check only sums.
 */
export async function areaHoldings(
  ex: Executor,
  areaId: string,
  limits: readonly LimitView[],
  listUnknown: boolean,
  subtree?: StampedSubtree,
): Promise<AreaHoldings> {
  const { ids: locationIds, stamps } = subtree ?? (await subtreeStamped(ex, areaId));
  const heldAmong = (itemIds: readonly string[]) => itemsHeldAt(ex, locationIds, itemIds);
  let kept = remembered.get(limits);
  if (!kept) {
    kept = new Map();
    remembered.set(limits, kept);
  }
  const key = `${listUnknown ? 'named' : 'sums'}\u0000${areaId}`;
  const was = kept.get(key);
  // Other locations than when kept (a location moved into the area or out of it): read afresh.
  const hit = was && was.stamps.size === stamps.size && locationIds.every((id) => was.stamps.has(id)) ? was : undefined;
  const changed = hit ? locationIds.filter((id) => hit.stamps.get(id) !== stamps.get(id)) : locationIds;
  if (hit && changed.length === 0) return { ids: locationIds, contributions: hit.contributions, heldAmong };
  const state = await readHoldings(ex, stamps, changed, hit, limits, listUnknown);
  if (!ex.isTransaction) {
    if (kept.size >= REMEMBERED_AREAS) kept.clear();
    kept.set(key, state);
  }
  return { ids: locationIds, contributions: state.contributions, heldAmong };
}

/** The area's state with `changed` read again (all of its locations without `before`). */
async function readHoldings(
  ex: Executor,
  stamps: ReadonlyMap<string, string>,
  changed: readonly string[],
  before: AreaState | undefined,
  limits: readonly LimitView[],
  listUnknown: boolean,
): Promise<AreaState> {
  const fresh = new Map<string, Map<string, Group>>(changed.map((id) => [id, new Map()]));
  // The meter's named items at the changed locations, read beside their rows on the guess that the named groups
  // stay the ones they were (the usual case after a write; a wrong guess is read again below).
  const guess = listUnknown && before?.itemised ? before.itemised : null;
  const guessed = guess ? readAhead(itemsOfHoldings(ex, changed, keysOf(guess))) : null;
  for (const r of await holdingsAt(ex, changed))
    fresh
      .get(r.location_id)!
      .set(groupKey(r), { unit_size: r.unit_size, hazard_codes: r.hazard_codes, containers: r.containers, quantity: r.quantity });
  const groups = new Map(before?.groups ?? []);
  // The groups whose figures moved at a changed location: only their sums are worked out again below. A write bumps
  // the versions of all of a location's rows it rewrites, and summing the unchanged ones again (a location holds
  // some 35 groups on the bench) was most of a changed meter's time.
  const touched = new Set<string>();
  const same = (a: Group | undefined, b: Group | undefined) =>
    a !== undefined && b !== undefined && a.containers === b.containers && a.quantity === b.quantity;
  for (const [id, now] of fresh) {
    const was = groups.get(id);
    for (const [k, g] of was ?? []) if (!same(g, now.get(k))) touched.add(k);
    for (const [k, g] of now) if (!same(g, was?.get(k))) touched.add(k);
    groups.set(id, now);
  }
  // Locations no longer in the area are dropped (its subtree changed: areaHoldings reads it afresh, without `before`).
  for (const id of groups.keys()) if (!stamps.has(id)) groups.delete(id);
  const totals = new Map(before?.totals ?? []);
  if (before) {
    // Each touched sum moved by the difference: the changed locations' rows now, less what they held before
    // (exact text sums, whole numbers added as numbers: src/shared/decimal.ts sumQuantities; a group at hundreds
    // of locations is not added up again).
    for (const k of touched) {
      const had = totals.get(k);
      const terms = had ? [had.quantity] : [];
      let containers = had?.containers ?? 0;
      let group = had;
      for (const id of changed) {
        const was = before.groups.get(id)?.get(k);
        const now = fresh.get(id)?.get(k);
        if (was) {
          terms.push(`-${was.quantity}`);
          containers -= was.containers;
        }
        if (now) {
          terms.push(now.quantity);
          containers += now.containers;
          group ??= now;
        }
      }
      if (containers > 0 && group) totals.set(k, { ...group, containers, quantity: sumQuantities(terms.join(' ')) });
      else totals.delete(k);
    }
  } else {
    const sums = new Map<string, { group: Group; containers: number; quantities: string[] }>();
    for (const held of groups.values())
      for (const [k, g] of held) {
        const sum = sums.get(k);
        if (sum) {
          sum.containers += g.containers;
          sum.quantities.push(g.quantity);
        } else sums.set(k, { group: g, containers: g.containers, quantities: [g.quantity] });
      }
    for (const [k, { group, containers, quantities }] of sums)
      if (containers > 0) totals.set(k, { ...group, containers, quantity: sumQuantities(quantities.join(' ')) });
  }

  const contributions: Contribution[] = [];
  const named: Group[] = [];
  for (const group of totals.values()) {
    const classes = classesOf(group.hazard_codes);
    if (classes.length === 0) continue;
    // An untouched group is the same object as before: its contribution too (read-only); a named one is set below.
    let c = contributionOf.get(group);
    if (!c) {
      c = {
        instanceId: null,
        itemId: null,
        itemName: '',
        classes,
        amount: amountOf(group.quantity, group.unit_size || null),
        containers: group.containers,
      };
      contributionOf.set(group, c);
    }
    if (listUnknown && someUnknown(group, c, limits)) named.push(group);
    else contributions.push(c);
  }
  const names = named.map(groupKey).sort().join('\u0001');
  const asBefore = before && before.itemised === names ? before : undefined;
  const items = new Map(asBefore?.items ?? []);
  const perItem = new Map(asBefore?.perItem ?? []);
  const namedContributions = new Map<string, Contribution>();
  if (named.length > 0) {
    // The items of the named groups, per location: read again only where something changed, unless the named
    // groups themselves are others than before. Their counts over the area move by the changed locations'
    // difference, as the sums do; a group's counts are copied before they move (what is kept stays read-only).
    const reread = asBefore ? changed : [...stamps.keys()];
    const rows = guessed && guess === names ? await guessed : await itemsOfHoldings(ex, reread, keysOf(names));
    const fresh = new Map<string, ItemRow[]>(reread.map((id) => [id, []]));
    for (const r of rows) fresh.get(r.location_id)!.push(r);
    const moved = new Map<string, Map<string, UnknownItem>>();
    const counts = (k: string) => {
      let m = moved.get(k);
      if (!m) {
        m = new Map([...(perItem.get(k) ?? [])].map(([id, u]) => [id, { ...u }]));
        perItem.set(k, m);
        moved.set(k, m);
      }
      return m;
    };
    for (const id of reread) {
      // What moved at this location, per group and item: a write rewrites a location's rows, most as they were.
      const moves = new Map<string, { row: ItemRow; by: number; renamed: boolean }>();
      for (const row of asBefore?.items.get(id) ?? [])
        moves.set(`${groupKey(row)}\u0000${row.item_id}`, { row, by: -row.containers, renamed: false });
      for (const row of fresh.get(id)!) {
        const k = `${groupKey(row)}\u0000${row.item_id}`;
        const was = moves.get(k);
        moves.set(k, { row, by: row.containers + (was?.by ?? 0), renamed: was !== undefined && was.row.name !== row.name });
      }
      for (const { row, by, renamed } of moves.values()) {
        if (by === 0 && !renamed) continue;
        const m = counts(groupKey(row));
        const u = m.get(row.item_id);
        if (!u) {
          m.set(row.item_id, { item_id: row.item_id, item_name: row.name, containers: by });
          continue;
        }
        u.containers += by;
        if (u.containers <= 0) m.delete(row.item_id);
        else if (renamed) u.item_name = row.name;
      }
      items.set(id, fresh.get(id)!);
    }
    for (const group of named) {
      const k = groupKey(group);
      const was = asBefore?.namedContributions.get(k);
      // Neither its sums nor its items moved: the contribution made before.
      const c =
        was && !moved.has(k) && !touched.has(k) ? was : { ...contributionOf.get(group)!, items: [...(perItem.get(k)?.values() ?? [])] };
      namedContributions.set(k, c);
      contributions.push(c);
    }
  }
  return {
    stamps,
    groups,
    totals,
    itemised: names,
    items: named.length > 0 ? items : new Map(),
    perItem: named.length > 0 ? perItem : new Map(),
    namedContributions,
    contributions,
  };
}
