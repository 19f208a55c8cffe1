import { areasAmong } from '../hazards/control-area.js';
import { saveStorageAttributes } from '../hazards/control-area-repository.js';
import { type Contribution, type MeterLine, meter } from '../hazards/control-area-rules.js';
import { conflictsAmong, GROUP_LABEL_OF, groupsOf } from '../hazards/segregation-rules.js';
import { stampedAreaSubtrees } from '../locations/repository.js';
import { visibleLocation } from '../locations/service.js';
import type { Actor } from '../shared/actor.js';
import type { Db, Executor } from '../shared/db/database.js';
import { notFound } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import { areaHoldings } from './area-holdings.js';
import { classesOf, findPlacement, type Incoming, lookups } from './placement.js';
import { readTargetAhead } from './placement-areas.js';
import { activeInstancesAt, instancesByIds, itemsByIds } from './placement-repository.js';
import type { ControlAreaMeter, PlacementCheck, PlacementCheckBody, SegregationReport, StorageAttributes } from './placement-schemas.js';
import * as repo from './repository.js';

// The placement checks' application endpoints (docs/safety.md): the preflight a dialog calls before the person
// confirms, a control area's meter, a location's segregation conflicts and an item's storage attributes.

/** POST /placement-checks: what the move or add would run into; nothing is written. Every id in the location's lab. */
export async function checkPlacement(db: Db, actor: Actor, body: PlacementCheckBody): Promise<PlacementCheck> {
  // Read together (each on a pool connection on PostgreSQL), with what the check reads of the target itself
  // (the areas above it and what they hold, the kinds stored there); nothing is answered before the location is
  // known visible.
  const ahead = readTargetAhead(db, body.location_id);
  const [location, instances, items] = await Promise.all([
    visibleLocation(db, actor, body.location_id),
    instancesByIds(
      db,
      (body.instances ?? []).map((i) => i.instance_id),
    ),
    itemsByIds(
      db,
      (body.items ?? []).map((i) => i.item_id),
    ),
  ]);
  const incoming: Incoming[] = [];
  for (const want of body.instances ?? []) {
    const i = instances.find((x) => x.instance_id === want.instance_id);
    if (!i || i.lab_id !== location.lab_id) throw notFound('inventory item instance');
    incoming.push({
      instanceId: i.instance_id,
      itemId: i.item_id,
      typeId: i.type_id,
      itemName: i.name,
      unitSize: i.unit_size,
      quantity: want.quantity ?? i.quantity,
    });
  }
  for (const want of body.items ?? []) {
    const it = items.find((x) => x.id === want.item_id);
    if (!it || it.lab_id !== location.lab_id) throw notFound('inventory item');
    incoming.push({
      instanceId: null,
      itemId: it.id,
      typeId: it.type_id,
      itemName: it.name,
      unitSize: it.unit_size,
      quantity: want.quantity,
    });
  }
  return findPlacement(db, location.lab_id, { locationId: location.id }, incoming, { instances, ahead });
}

// The lines of what an area holds, worked out once per remembered holdings (src/inventory/area-holdings.ts keeps one
// array per area and state of its rows and limits) and number of items named: read-only once made.
const linesOf = new WeakMap<readonly Contribution[], Map<number, MeterLine[]>>();
function meterLines(limits: Parameters<typeof meter>[0], contributions: readonly Contribution[], listed: number): MeterLine[] {
  let byListed = linesOf.get(contributions);
  if (!byListed) {
    byListed = new Map();
    linesOf.set(contributions, byListed);
  }
  let lines = byListed.get(listed);
  if (!lines) {
    lines = meter(limits, contributions, listed);
    byListed.set(listed, lines);
  }
  return lines;
}

/** GET /locations/{id}/control-area/meter: what the control area holds against each limit, naming `listed` items of unknown amount per line. */
export async function controlAreaMeter(db: Db, actor: Actor, id: string, listed: number): Promise<ControlAreaMeter> {
  // The area and its holdings are read beside the visibility check, not after it (four statements one after the
  // other were most of the meter's time on PostgreSQL); nothing is answered unless the location is visible.
  const [location, held] = await Promise.all([
    visibleLocation(db, actor, id),
    // The area's row and its stamped subtree (none when the location is not one) side by side too.
    Promise.all([areasAmong(db, [id]), stampedAreaSubtrees(db, id, 'at')]).then(
      async ([[area], trees]) => area && { area, holdings: await areaHoldings(db, area.locationId, area.limits, true, trees.get(id)) },
    ),
  ]);
  if (!held) return { location_id: location.id, name: location.name, marked: false, lines: [] };
  const { area, holdings } = held;
  return { location_id: location.id, name: location.name, marked: true, lines: meterLines(area.limits, holdings.contributions, listed) };
}

/** GET /locations/{id}/segregation-conflicts: the pairs of containers stored at the location that must be apart. */
export async function segregationReport(db: Db, actor: Actor, id: string): Promise<SegregationReport> {
  const location = await visibleLocation(db, actor, id);
  const rows = await activeInstancesAt(db, [location.id]);
  const l = await lookups(
    db,
    rows.map((r) => ({ itemId: r.item_id, typeId: r.type_id })),
  );
  const containers = rows
    .map((r) => ({
      instanceId: r.instance_id,
      itemId: r.item_id,
      itemName: r.name,
      groups: groupsOf(classesOf(l, r.item_id, r.type_id), l.attributes(r.item_id, r.type_id)),
    }))
    .filter((c) => c.groups.length > 0)
    .sort((a, b) => a.itemName.localeCompare(b.itemName) || a.instanceId.localeCompare(b.instanceId));
  return {
    location_id: location.id,
    conflicts: conflictsAmong(containers).map((c) => ({
      ...c,
      message: `${c.a.item_name} (${GROUP_LABEL_OF(c.a.group)}) beside ${c.b.item_name} (${GROUP_LABEL_OF(c.b.group)}): ${c.reason}`,
    })),
  };
}

async function visibleItem(ex: Executor, actor: Actor, id: string) {
  const item = await repo.findVisibleItem(ex, actor, id);
  if (!item) throw notFound('inventory item');
  return item;
}

/** GET /inventory-items/{id}/storage-attributes: the item's own, else its type's, else none. */
export async function getStorageAttributes(db: Db, actor: Actor, id: string): Promise<StorageAttributes> {
  const item = await visibleItem(db, actor, id);
  const l = await lookups(db, [{ itemId: item.id, typeId: item.type_id }]);
  const a = l.attributes(item.id, item.type_id);
  return { corrosive: a?.corrosive ?? null, aqueous: a?.aqueous ?? false };
}

/** PUT /inventory-items/{id}/storage-attributes: the item's own (overriding its type's). Anyone who may edit the item. */
export async function setStorageAttributes(db: Db, actor: Actor, id: string, body: StorageAttributes): Promise<StorageAttributes> {
  return db.transaction().execute(async (trx) => {
    const item = await visibleItem(trx, actor, id);
    await saveStorageAttributes(trx, {
      subject_kind: 'item',
      subject_id: item.id,
      corrosive: body.corrosive,
      aqueous: body.aqueous ? 1 : 0,
      updated_by: actor.userId,
      updated_at: nowIso(),
    });
    return { corrosive: body.corrosive, aqueous: body.aqueous };
  });
}
