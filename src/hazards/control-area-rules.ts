import { type Dec, dec } from '../shared/decimal.js';
import { firstByName } from './first-by-name.js';
import { GHS_TO_IFC, MAQ_TABLE, type MaqEntry, type PhysicalState } from './maq-data.js';

// Control areas (docs/safety.md): the limits of one, the meter (what is stored against each limit) and the check of
// an incoming amount. Pure: the stored instances, their hazard classes and parsed amounts come from the caller
// (src/inventory/placement.ts reads them under the location's subtree).

export type { PhysicalState } from './maq-data.js';

const LB_KG = dec('0.45359237');
const GAL_L = dec('3.785411784');
const CUFT_M3 = dec('0.028316846592');

/** The unit each state is measured in: solids in kg, liquids in L, gases in m³ at NTP. */
export const STATE_UNIT: Record<PhysicalState, string> = { solid: 'kg', liquid: 'L', gas: 'm³' };

export interface HazardClassRef {
  id: string;
  category: string | null;
}

export interface Limit {
  category: string;
  state: PhysicalState;
  /** A decimal in the state's unit. */
  limit: string;
}

export interface AreaOptions {
  sprinklered: boolean;
  cabinets: boolean;
}

const round = (d: Dec) => d.toDecimalPlaces(3).toFixed();

/** The code's figure of one entry and state, in kg, L or m³; undefined where the code sets none. */
export function baseLimit(entry: MaqEntry, state: PhysicalState): Dec | undefined {
  if (state === 'solid') return entry.solidLb === undefined ? undefined : dec(entry.solidLb).times(LB_KG);
  if (state === 'gas') return entry.gasCuFt === undefined ? undefined : dec(entry.gasCuFt).times(CUFT_M3);
  if (entry.liquidGal !== undefined) return dec(entry.liquidGal).times(GAL_L);
  // Stated in pounds for a liquid: taken at 1 kg per litre (maq-data.ts).
  return entry.liquidLb === undefined ? undefined : dec(entry.liquidLb).times(LB_KG);
}

/** The IFC defaults with the options' increases: sprinklers +100 %, cabinets +100 %, cumulative (x4 with both). */
export function defaultLimits(options: AreaOptions): Limit[] {
  const factor = (options.sprinklered ? 2 : 1) * (options.cabinets ? 2 : 1);
  const out: Limit[] = [];
  for (const entry of MAQ_TABLE) {
    for (const state of ['solid', 'liquid', 'gas'] as const) {
      const base = baseLimit(entry, state);
      if (base) out.push({ category: entry.id, state, limit: round(base.times(factor)) });
    }
  }
  return out;
}

export interface LimitView extends Limit {
  label: string;
  unit: string;
  /** 'set': edited for this area; 'default': the IFC's figure with the area's options. */
  source: 'set' | 'default';
}

const ENTRY = new Map(MAQ_TABLE.map((e) => [e.id, e]));
export const labelOf = (category: string): string => ENTRY.get(category)?.label ?? category;
export const isCategory = (category: string): boolean => ENTRY.has(category);

/** The limits in force: the defaults with the options, each replaced by the one set by hand when there is one. */
export function effectiveLimits(options: AreaOptions, set: readonly Limit[]): LimitView[] {
  const own = new Map(set.map((l) => [`${l.category}/${l.state}`, l]));
  return defaultLimits(options).map((d) => {
    const mine = own.get(`${d.category}/${d.state}`);
    return {
      ...(mine ?? d),
      label: labelOf(d.category),
      unit: STATE_UNIT[d.state],
      source: mine ? 'set' : 'default',
    };
  });
}

/** Whether a state has a default limit for a category (the only limits that may be set). */
export const hasDefault = (category: string, state: PhysicalState): boolean => {
  const entry = ENTRY.get(category);
  return entry !== undefined && baseLimit(entry, state) !== undefined;
};

export interface Placement {
  ifc: string[];
  state?: PhysicalState;
  approximate: boolean;
}

/** The IFC categories a GHS class and category counts towards (GHS_TO_IFC); none for classes without a limit. */
export function ifcOf(cls: HazardClassRef): Placement {
  const row = GHS_TO_IFC.find((m) => m.classId === cls.id && (m.categories.length === 0 || m.categories.includes(cls.category ?? '')));
  return row ? { ifc: [...row.ifc], state: row.state, approximate: row.approximate } : { ifc: [], approximate: false };
}

/** A parsed amount: `value` in the family's base unit (kg, L or a count). */
export interface Amount {
  family: 'mass' | 'volume' | 'count';
  value: string;
}

/**
 * The amount counted against a state's limit, or undefined when it cannot be told without guessing: a liquid
 * whose size is a mass (its density is unknown), a solid whose size is a volume, a count. A gas sized in volume
 * is taken as its volume at NTP (L -> m³).
 */
export function amountIn(state: PhysicalState, amount: Amount | null): Dec | undefined {
  if (!amount) return undefined;
  if (state === 'solid') return amount.family === 'mass' ? dec(amount.value) : undefined;
  if (state === 'liquid') return amount.family === 'volume' ? dec(amount.value) : undefined;
  return amount.family === 'volume' ? dec(amount.value).dividedBy(1000) : undefined;
}

/** The state of a container: the class's own, else the unit size's (mass: solid, volume: liquid). */
export function stateOf(placement: Placement, amount: Amount | null): PhysicalState | undefined {
  if (placement.state) return placement.state;
  if (amount?.family === 'mass') return 'solid';
  if (amount?.family === 'volume') return 'liquid';
  return undefined;
}

/**
 * One container (or an incoming amount) as the meter counts it; or a group of containers that share a unit size
 * and statements, their amounts summed (`containers` of them, made up of `items`: the meter's running totals).
 */
export interface Contribution {
  instanceId: string | null;
  itemId: string | null;
  itemName: string;
  classes: readonly HazardClassRef[];
  amount: Amount | null;
  /** How many containers this stands for: 1 when absent. */
  containers?: number;
  /** For a group: the items it is made of, with their containers (named when the amount is unknown). */
  items?: readonly UnknownItem[];
}

/** An item some of whose containers a limit cannot count, and how many of them. */
export interface UnknownItem {
  item_id: string | null;
  item_name: string;
  containers: number;
}

export interface MeterLine {
  category: string;
  state: PhysicalState;
  label: string;
  unit: string;
  amount: string;
  limit: string;
  over: boolean;
  /** How many containers of this category have an amount not known: never guessed. */
  unknown_containers: number;
  /** The items they belong to, by name: the first `listed` of `unknown_items_count`. */
  unknown_items: UnknownItem[];
  unknown_items_count: number;
}

export interface Tally {
  amount: Dec;
  unknownContainers: number;
  /** Per item (its id, else its name): the containers of unknown amount. */
  unknown: Map<string, UnknownItem>;
}

function addUnknown(t: Tally, c: Contribution): void {
  const n = c.containers ?? 1;
  t.unknownContainers += n;
  for (const u of c.items ?? [{ item_id: c.itemId, item_name: c.itemName, containers: n }]) {
    const key = u.item_id ?? `\u0000${u.item_name}`;
    const had = t.unknown.get(key);
    if (had) had.containers += u.containers;
    else t.unknown.set(key, { ...u });
  }
}

/** Adds the contributions into tallies per category and state; a category without a state goes to every state it limits. */
export function tally(contributions: readonly Contribution[], limits: readonly LimitView[]): Map<string, Tally> {
  const states = new Map<string, PhysicalState[]>();
  for (const l of limits) states.set(l.category, [...(states.get(l.category) ?? []), l.state]);
  const out = new Map<string, Tally>();
  const at = (key: string) => {
    const t = out.get(key) ?? { amount: dec(0), unknownContainers: 0, unknown: new Map() };
    out.set(key, t);
    return t;
  };
  for (const c of contributions) {
    const seen = new Set<string>();
    const placements = c.classes.map(ifcOf);
    // A statement shared by a liquid and a solid class (H271, H272: oxidizing liquid and solid) gives a container
    // both; its own amount says which it is (a volume: the liquid), so the other state's limit does not list it.
    const natural = c.amount ? stateOf({ ifc: [], approximate: false }, c.amount) : undefined;
    const told = new Set(placements.filter((p) => p.state !== undefined && p.state === natural).flatMap((p) => p.ifc));
    for (const placement of placements) {
      const state = stateOf(placement, c.amount);
      for (const category of placement.ifc) {
        if (placement.state !== undefined && placement.state !== natural && told.has(category)) continue;
        // A container with two classes of one IFC category (oral and dermal toxicity) counts once.
        const targets = state ? [state] : (states.get(category) ?? []);
        for (const s of targets) {
          const key = `${category}/${s}`;
          if (seen.has(key) || !states.get(category)?.includes(s)) continue;
          seen.add(key);
          const value = state ? amountIn(s, c.amount) : undefined;
          if (value === undefined) addUnknown(at(key), c);
          else at(key).amount = at(key).amount.plus(value);
        }
      }
    }
  }
  return out;
}

/**
 * The meter: every limit something is stored against, with the amount stored; the empty ones are left out. Of the
 * items with containers of unknown amount, each line names the first `listed` by name (all when absent).
 */
export function meter(limits: readonly LimitView[], stored: readonly Contribution[], listed = Number.POSITIVE_INFINITY): MeterLine[] {
  const tallies = tally(stored, limits);
  const lines: MeterLine[] = [];
  for (const l of limits) {
    const t = tallies.get(`${l.category}/${l.state}`);
    if (!t) continue;
    lines.push({
      category: l.category,
      state: l.state,
      label: l.label,
      unit: l.unit,
      amount: round(t.amount),
      limit: l.limit,
      over: t.amount.greaterThan(l.limit),
      unknown_containers: t.unknownContainers,
      unknown_items: firstByName(t.unknown.values(), listed),
      unknown_items_count: t.unknown.size,
    });
  }
  return lines;
}

export interface LimitFinding {
  category: string;
  state: PhysicalState;
  label: string;
  unit: string;
  /** Stored before, the incoming amount, the limit, what the incoming puts over it (decimals in `unit`). */
  current: string;
  adding: string;
  limit: string;
  over_by: string;
}

/**
 * The limits the incoming contributions would take the area over: those the incoming adds to (a known, positive
 * amount) and that the stored amount plus it exceeds. What was already over and gets more is a finding too.
 */
export function checkLimits(
  limits: readonly LimitView[],
  stored: readonly Contribution[] | ReadonlyMap<string, Tally>,
  incoming: readonly Contribution[],
): LimitFinding[] {
  const before = stored instanceof Map ? stored : tally(stored as readonly Contribution[], limits);
  const adding = tally(incoming, limits);
  const out: LimitFinding[] = [];
  for (const l of limits) {
    const add = adding.get(`${l.category}/${l.state}`);
    if (!add?.amount.greaterThan(0)) continue;
    const current = before.get(`${l.category}/${l.state}`)?.amount ?? dec(0);
    const after = current.plus(add.amount);
    if (!after.greaterThan(l.limit)) continue;
    out.push({
      category: l.category,
      state: l.state,
      label: l.label,
      unit: l.unit,
      current: round(current),
      adding: round(add.amount),
      limit: l.limit,
      over_by: round(after.minus(l.limit)),
    });
  }
  return out;
}

/** "Flammable liquids IB and IC in Solvent cabinet: 118 L of 120 L; this adds 4 L, 2 L over the limit". */
export function limitSentence(f: LimitFinding, areaName: string): string {
  const u = (v: string) => `${v} ${f.unit}`;
  return `${f.label} in ${areaName}: ${u(f.current)} of ${u(f.limit)}; this adds ${u(f.adding)}, ${u(f.over_by)} over the limit`;
}
