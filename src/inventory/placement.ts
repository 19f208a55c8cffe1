import { areasAmong } from '../hazards/control-area.js';
import { lockControlAreas, storageAttributesOf } from '../hazards/control-area-repository.js';
import { type Amount, type Contribution, checkLimits, type LimitFinding, limitSentence } from '../hazards/control-area-rules.js';
import { effectiveHazards } from '../hazards/repository.js';
import { groupsOf, type SegregationFinding, type StorageAttributes, segregationSentence } from '../hazards/segregation-rules.js';
import { type SafetyModes, safetyModes } from '../hazards/settings.js';
import { type LocationPath, locationPaths, pathsUpFrom, subtreeOf } from '../locations/repository.js';
import { isKnown, totalAmount } from '../shared/amounts.js';
import type { Executor } from '../shared/db/database.js';
import { dec } from '../shared/decimal.js';
import { AppError } from '../shared/errors.js';
import { type AreaHoldings, areaHoldings } from './area-holdings.js';
import { instancesByIds, type StoredRow } from './placement-repository.js';
import { segregationAt } from './placement-segregation.js';

// The placement checks (docs/safety.md): before a container goes to a location (a move, a put-away, an added or
// received instance, a larger quantity) or an order request is approved, the segregation table is checked against
// what is stored at the location and each control area above it against its limits with the incoming amount.
// In warn mode (the default) the write goes ahead; in block mode it is refused with 409 and the same words. The
// control areas' rows are locked first (enforcePlacement), so two placements racing for the last litre check and
// write one after the other.

/** A container about to be at a location: `quantity` is its whole quantity there after the write. */
export interface Incoming {
  instanceId: string | null;
  itemId: string | null;
  typeId: string | null;
  itemName: string;
  unitSize: string | null;
  quantity: string;
}

/** An item's container as incoming: `quantity` is its whole quantity at the target after the write. */
export const incomingOf = (
  item: { id: string; type_id: string | null; name: string; unit_size: string | null },
  instanceId: string | null,
  quantity: string,
): Incoming => ({ instanceId, itemId: item.id, typeId: item.type_id, itemName: item.name, unitSize: item.unit_size, quantity });

export interface SegregationWarning extends SegregationFinding {
  incoming_item_name: string;
  message: string;
}

export interface LimitWarning extends LimitFinding {
  control_area_id: string;
  control_area_name: string;
  message: string;
}

export interface PlacementFindings {
  segregation: SegregationWarning[];
  limits: LimitWarning[];
  /** Incoming containers whose amount cannot be counted against a limit (the unit size is not parsed): never guessed. */
  unknown_amounts: { item_id: string | null; item_name: string }[];
  modes: SafetyModes;
  /** Whether the lab's settings refuse the write. */
  blocked: boolean;
}

// Not an id (ids are UUIDs), and no NUL: PostgreSQL refuses it in text.
const NO_TYPE = 'incoming:';

const amountOf = (quantity: string, unitSize: string | null): Amount | null => {
  const a = totalAmount(quantity, unitSize);
  return isKnown(a) ? { family: a.family, value: a.base.toFixed() } : null;
};

export interface Lookups {
  classes: Map<string, { id: string; category: string | null }[]>;
  attributes: (itemId: string | null, typeId: string | null) => StorageAttributes | null;
}

export async function lookups(ex: Executor, rows: { itemId: string | null; typeId: string | null }[]): Promise<Lookups> {
  const pairs = new Map<string, string | null>();
  for (const r of rows) pairs.set(r.itemId ?? `${NO_TYPE}${r.typeId ?? ''}`, r.typeId);
  const hazards = await effectiveHazards(
    ex,
    [...pairs].map(([itemId, typeId]) => ({ itemId, typeId })),
  );
  const classes = new Map([...hazards].map(([id, h]) => [id, h.classes.map((c) => ({ id: c.id, category: c.category }))]));
  const itemIds = [...pairs.keys()].filter((k) => !k.startsWith(NO_TYPE));
  const typeIds = [...new Set([...pairs.values()].filter((t): t is string => t !== null))];
  const attrs = await storageAttributesOf(ex, itemIds, typeIds);
  const byKey = new Map(attrs.map((a) => [`${a.subject_kind}:${a.subject_id}`, { corrosive: a.corrosive, aqueous: a.aqueous === 1 }]));
  return {
    classes,
    attributes: (itemId, typeId) => (itemId && byKey.get(`item:${itemId}`)) || (typeId && byKey.get(`type:${typeId}`)) || null,
  };
}

export const classesOf = (l: Lookups, itemId: string | null, typeId: string | null) =>
  l.classes.get(itemId ?? `${NO_TYPE}${typeId ?? ''}`) ?? [];

export const storedContribution = (l: Lookups, r: StoredRow): Contribution => ({
  instanceId: r.instance_id,
  itemId: r.item_id,
  itemName: r.name,
  classes: classesOf(l, r.item_id, r.type_id),
  amount: amountOf(r.quantity, r.unit_size),
});

/**
 * What placing `incoming` at `locationId` (or, for an approval, into the control areas `areaIds`) would run into.
 * With `lock`, the control areas' rows are locked before anything is read (inside the writer's transaction).
 */
export async function findPlacement(
  ex: Executor,
  labId: string,
  target: { locationId: string | null; areaIds?: readonly string[] },
  incoming: readonly Incoming[],
  opts: { lock?: boolean; pending?: () => Promise<Incoming[]>; instances?: Awaited<ReturnType<typeof instancesByIds>> } = {},
): Promise<PlacementFindings> {
  const modes = await safetyModes(ex, labId);
  // The target and the locations above it (the areas it may fall in), with their names for the findings.
  const above = target.areaIds ? undefined : target.locationId ? await pathsUpFrom(ex, target.locationId) : new Map<string, LocationPath>();
  const candidates = target.areaIds ?? [...above!.keys()];
  const areas = await areasAmong(ex, candidates);
  if (opts.lock)
    await lockControlAreas(
      ex,
      areas.map((a) => a.locationId),
    );
  // Each area's holdings, summed per unit size and hazard statements (src/inventory/area-holdings.ts).
  const stored = new Map<string, { ids: string[]; holdings: AreaHoldings }>();
  for (const a of areas) {
    const ids = [...new Set((await subtreeOf(ex, a.locationId)).map((s) => s.id))];
    stored.set(a.locationId, { ids, holdings: await areaHoldings(ex, ids, a.limits, false) });
  }
  const incomingIds = new Set(incoming.flatMap((i) => (i.instanceId === null ? [] : [i.instanceId])));
  // The incoming containers as stored now (the caller may have read them already, in the same transaction).
  const moving = incomingIds.size === 0 ? [] : (opts.instances ?? (await instancesByIds(ex, [...incomingIds])));
  // Approvals: goods approved but not received yet count in the areas that hold their product (read under the lock).
  const pending = areas.length > 0 && opts.pending ? await opts.pending() : [];
  const l = await lookups(
    ex,
    [...incoming, ...pending].map((i) => ({ itemId: i.itemId, typeId: i.typeId })),
  );

  const segregation: SegregationWarning[] = [];
  if (target.locationId) {
    // A container already at the location brings nothing new beside the others (a larger quantity is a limit's business).
    const here = new Set(moving.filter((m) => m.location_id === target.locationId).map((m) => m.instance_id));
    const containers = incoming
      .filter((i) => i.instanceId === null || !here.has(i.instanceId))
      .map((i) => ({
        incoming: i,
        container: {
          instanceId: i.instanceId,
          itemId: i.itemId,
          itemName: i.itemName,
          groups: groupsOf(classesOf(l, i.itemId, i.typeId), l.attributes(i.itemId, i.typeId)),
        },
      }));
    const found = await segregationAt(
      ex,
      target.locationId,
      containers.map((c) => c.container),
      incomingIds,
    );
    for (const { incoming: i, container } of containers)
      for (const f of found.get(container) ?? [])
        segregation.push({ ...f, incoming_item_name: i.itemName, message: segregationSentence(i.itemName, f) });
  }

  const names =
    above ??
    (await locationPaths(
      ex,
      areas.map((a) => a.locationId),
    ));
  const limits: LimitWarning[] = [];
  const unknown = new Map<string, { item_id: string | null; item_name: string }>();
  for (const a of areas) {
    const { ids, holdings } = stored.get(a.locationId)!;
    const within = new Set(ids);
    const inArea = new Map(moving.filter((m) => m.location_id !== null && within.has(m.location_id)).map((m) => [m.instance_id, m]));
    const adding: Contribution[] = [];
    for (const i of incoming) {
      // Already counted in this area (a move within it, a larger quantity): only the difference comes in.
      const before = i.instanceId !== null ? inArea.get(i.instanceId) : undefined;
      const delta = before ? dec(i.quantity).minus(before.quantity) : dec(i.quantity);
      if (!delta.greaterThan(0)) continue;
      const amount = amountOf(delta.toFixed(), i.unitSize);
      if (!amount) unknown.set(`${i.itemId}/${i.itemName}`, { item_id: i.itemId, item_name: i.itemName });
      adding.push({ instanceId: i.instanceId, itemId: i.itemId, itemName: i.itemName, classes: classesOf(l, i.itemId, i.typeId), amount });
    }
    if (adding.length === 0) continue;
    const areaName = names.get(a.locationId)?.name ?? 'the control area';
    const held =
      pending.length > 0 ? await holdings.heldAmong(pending.flatMap((p) => (p.itemId === null ? [] : [p.itemId]))) : new Set<string>();
    const toCome = pending
      .filter((p) => p.itemId !== null && held.has(p.itemId))
      .map((p) => ({
        instanceId: null,
        itemId: p.itemId,
        itemName: p.itemName,
        classes: classesOf(l, p.itemId, p.typeId),
        amount: amountOf(p.quantity, p.unitSize),
      }));
    for (const f of checkLimits(a.limits, [...holdings.contributions, ...toCome], adding)) {
      limits.push({ ...f, control_area_id: a.locationId, control_area_name: areaName, message: limitSentence(f, areaName) });
    }
  }
  const blocked = (modes.segregation === 'block' && segregation.length > 0) || (modes.limits === 'block' && limits.length > 0);
  return { segregation, limits, unknown_amounts: [...unknown.values()], modes, blocked };
}

/**
 * Inside a write's transaction, before it writes: locks the control areas the target falls in, checks, and
 * refuses in block mode (409 limit_exceeded or segregation_conflict, the findings in the body's `findings`) so nothing is written.
 */
export async function enforcePlacement(
  trx: Executor,
  labId: string,
  target: { locationId: string | null; areaIds?: readonly string[] },
  incoming: readonly Incoming[],
  pending?: () => Promise<Incoming[]>,
): Promise<PlacementFindings> {
  if (!target.locationId && !target.areaIds?.length)
    return { segregation: [], limits: [], unknown_amounts: [], modes: { segregation: 'warn', limits: 'warn' }, blocked: false };
  const found = await findPlacement(trx, labId, target, incoming, { lock: true, pending });
  if (!found.blocked) return found;
  const limitsBlock = found.modes.limits === 'block' && found.limits.length > 0;
  const words = [
    ...(limitsBlock ? found.limits.map((f) => f.message) : []),
    ...(found.modes.segregation === 'block' ? found.segregation.map((f) => f.message) : []),
  ];
  // The error body every error has (src/shared/schemas.ts ErrorBody): the words carry the figures, `findings` the same objects.
  throw new AppError(limitsBlock ? 'limit_exceeded' : 'segregation_conflict', `Refused by the lab's safety settings: ${words.join('; ')}`, {
    extra: { findings: found },
  });
}
