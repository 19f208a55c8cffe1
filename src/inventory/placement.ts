import { storageAttributesOf } from '../hazards/control-area-repository.js';
import { type Amount, type Contribution, checkLimits, type LimitFinding, limitSentence } from '../hazards/control-area-rules.js';
import { effectiveHazards } from '../hazards/repository.js';
import {
  conflictsWith,
  groupsOf,
  type SegregationFinding,
  type StorageAttributes,
  segregationSentence,
} from '../hazards/segregation-rules.js';
import { type SafetyModes, safetyModes } from '../hazards/settings.js';
import { locationPaths } from '../locations/repository.js';
import { isKnown, totalAmount } from '../shared/amounts.js';
import type { Executor } from '../shared/db/database.js';
import { dec } from '../shared/decimal.js';
import { AppError } from '../shared/errors.js';
import { talliesOf } from './area-holdings.js';
import { type Ahead, readAreasOf } from './placement-areas.js';
import { instancesByIds, type StoredRow } from './placement-repository.js';
import { type Profiles, profilesAhead, segregationAt } from './placement-segregation.js';

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
  const itemIds = [...pairs.keys()].filter((k) => !k.startsWith(NO_TYPE));
  const typeIds = [...new Set([...pairs.values()].filter((t): t is string => t !== null))];
  // Neither waits for the other (on PostgreSQL outside a transaction, each on a pool connection).
  const [hazards, attrs] = await Promise.all([
    effectiveHazards(
      ex,
      [...pairs].map(([itemId, typeId]) => ({ itemId, typeId })),
    ),
    storageAttributesOf(ex, itemIds, typeIds),
  ]);
  const classes = new Map([...hazards].map(([id, h]) => [id, h.classes.map((c) => ({ id: c.id, category: c.category }))]));
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

/** The segregation findings of the incoming containers at `locationId` (none without a location: an approval). */
async function segregationOf(
  ex: Executor,
  locationId: string | null,
  incoming: readonly Incoming[],
  incomingIds: ReadonlySet<string>,
  l: Lookups,
  moving: readonly { instance_id: string; location_id: string | null }[],
  ahead?: Profiles,
): Promise<SegregationWarning[]> {
  const segregation: SegregationWarning[] = [];
  if (!locationId) return segregation;
  // A container already at the location brings nothing new beside the others (a larger quantity is a limit's business).
  const here = new Set(moving.filter((m) => m.location_id === locationId).map((m) => m.instance_id));
  const all = incoming.map((i) => ({
    incoming: i,
    arriving: i.instanceId === null || !here.has(i.instanceId),
    container: {
      instanceId: i.instanceId,
      itemId: i.itemId,
      itemName: i.itemName,
      groups: groupsOf(classesOf(l, i.itemId, i.typeId), l.attributes(i.itemId, i.typeId)),
    },
  }));
  const containers = all.filter((c) => c.arriving);
  const found = await segregationAt(
    ex,
    locationId,
    containers.map((c) => c.container),
    incomingIds,
    ahead,
  );
  const add = (i: Incoming, f: SegregationFinding) =>
    segregation.push({ ...f, incoming_item_name: i.itemName, message: segregationSentence(i.itemName, f) });
  for (const { incoming: i, container } of containers) for (const f of found.get(container) ?? []) add(i, f);
  // Containers that arrive together end up side by side too (an import's rows, a delivery put away at once), and
  // beside one of them already there: each such pair once, the later against the earlier.
  all.forEach((c, n) => {
    const earlier = all.slice(0, n).filter((o) => c.arriving || o.arriving);
    for (const f of conflictsWith(
      c.container,
      earlier.map((o) => o.container),
    ))
      add(c.incoming, f);
  });
  return segregation;
}

/**
 * What placing `incoming` at `locationId` (or, for an approval, into the control areas `areaIds`) would run into.
 * With `lock`, the control areas' rows are locked before anything is read (inside the writer's transaction).
 */
export async function findPlacement(
  ex: Executor,
  labId: string,
  target: { locationId: string | null; areaIds?: readonly string[] },
  incoming: readonly Incoming[],
  opts: { lock?: boolean; pending?: () => Promise<Incoming[]>; instances?: Awaited<ReturnType<typeof instancesByIds>>; ahead?: Ahead } = {},
): Promise<PlacementFindings> {
  const incomingIds = new Set(incoming.flatMap((i) => (i.instanceId === null ? [] : [i.instanceId])));
  const readAreas = () => readAreasOf(ex, target, opts.lock ?? false);
  // The incoming containers as stored now (the caller may have read them already, in the same transaction).
  const readMoving = async () => (incomingIds.size === 0 ? [] : (opts.instances ?? (await instancesByIds(ex, [...incomingIds]))));
  const lookupsOf = (rows: readonly Incoming[]) =>
    lookups(
      ex,
      rows.map((i) => ({ itemId: i.itemId, typeId: i.typeId })),
    );

  let modes: SafetyModes;
  let read: Awaited<ReturnType<typeof readAreas>>;
  let moving: Awaited<ReturnType<typeof readMoving>>;
  let pending: Incoming[] = [];
  let l: Lookups;
  let segregation: SegregationWarning[];
  if (!opts.lock && !opts.pending && !ex.isTransaction) {
    // Nothing locked and no transaction (the preflight): the reads that do not wait for each other go together,
    // each on a connection of the pool on PostgreSQL, where one after the other was most of the check's time
    // (docs/performance.md, "Prepared statements and reads together").
    const movingRead = readMoving();
    const lookupsRead = lookupsOf(incoming);
    // The kinds stored at the location too, beside the incoming containers' hazards rather than after them (or
    // already being read: `ahead`, of the same location).
    const profiles = opts.ahead?.profiles ?? (target.locationId ? profilesAhead(ex, target.locationId) : undefined);
    [modes, read, moving, l, segregation] = await Promise.all([
      safetyModes(ex, labId),
      opts.ahead?.areas ?? readAreas(),
      movingRead,
      lookupsRead,
      Promise.all([lookupsRead, movingRead]).then(([lk, mv]) =>
        segregationOf(ex, target.locationId, incoming, incomingIds, lk, mv, profiles),
      ),
    ]);
  } else {
    modes = await safetyModes(ex, labId);
    read = await readAreas();
    moving = await readMoving();
    // Approvals: goods approved but not received yet count in the areas that hold their product (read under the lock).
    pending = read.areas.length > 0 && opts.pending ? await opts.pending() : [];
    l = await lookupsOf([...incoming, ...pending]);
    segregation = await segregationOf(ex, target.locationId, incoming, incomingIds, l, moving);
  }
  const { above, areas, stored } = read;

  const names =
    above ??
    (await locationPaths(
      ex,
      areas.map((a) => a.locationId),
    ));
  const limits: LimitWarning[] = [];
  const unknown = new Map<string, { item_id: string | null; item_name: string }>();
  for (const a of areas) {
    const holdings = stored.get(a.locationId)!;
    const ids = holdings.ids;
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
    const before = toCome.length > 0 ? [...holdings.contributions, ...toCome] : talliesOf(holdings.contributions, a.limits);
    for (const f of checkLimits(a.limits, before, adding)) {
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
