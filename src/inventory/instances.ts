import { assignCodes } from '../labels/repository.js';
import { findLabRow } from '../labs/repository.js';
import { findLocation } from '../locations/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import { dec } from '../shared/decimal.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';
import { asItIs, finishItemChange, type ItemWithEtag, lockVisibleItem, preconditionFailed } from './changes.js';
import { type HistoryEntry, recordHistory } from './history-rows.js';
import { enforcePlacement, incomingOf } from './placement.js';
import * as repo from './repository.js';
import { ifMatchSatisfied } from './rules.js';
import type { InstanceCreate, InstanceEdit, InventoryItem } from './schemas.js';

// An item's instances in a lab that uses instances: added, edited, archived. Their quantities alone are in
// quantities.ts; an item's first instances come with it (items.ts).

/** An instance as the seed, the fixtures, receiving and item creation give it. */
export interface NewInstance {
  quantity: string;
  lotNumber?: string | null;
  expirationDate?: string | null;
  locationId?: string | null;
  /** Received goods: without a lot, expiry or location it waits on the lab's put-away list (src/inventory/put-away.ts). */
  putAwayDue?: boolean;
}

/** Lot, expiry and location all known: nothing left to put away. */
export const isComplete = (i: { lot_number: string | null; expiration_date: string | null; location_id: string | null }): boolean =>
  i.lot_number !== null && i.expiration_date !== null && i.location_id !== null;

/** A location given for an instance must be in the item's lab. */
export async function checkInstanceLocation(trx: Executor, labId: string, locationId: string | null | undefined): Promise<void> {
  if (!locationId) return;
  const location = await findLocation(trx, locationId);
  if (!location || location.lab_id !== labId) throw notFound('location');
}

export async function insertInstanceRow(trx: Executor, labId: string, itemId: string, inst: NewInstance, now: string): Promise<string> {
  await checkInstanceLocation(trx, labId, inst.locationId);
  const id = newId();
  await repo.insertInstance(trx, {
    id,
    item_id: itemId,
    quantity: inst.quantity,
    lot_number: inst.lotNumber ?? null,
    expiration_date: inst.expirationDate ?? null,
    location_id: inst.locationId ?? null,
    archived_at: null,
    created_at: now,
    updated_at: now,
    put_away_due_at:
      inst.putAwayDue &&
      !isComplete({
        lot_number: inst.lotNumber ?? null,
        expiration_date: inst.expirationDate ?? null,
        location_id: inst.locationId ?? null,
      })
        ? now
        : null,
  });
  await assignCodes(trx, 'instance', labId, [id]);
  return id;
}

/**
 * Adds an instance to an item inside the caller's transaction (labs that use instances only: 409 otherwise),
 * records it in the history and emits inventory-item.updated. The API, receiving and the demo all come here,
 * through inventory/'s own services, which check what the caller sees first.
 */
export async function addInstanceIn(
  trx: Executor,
  deps: ServiceDeps,
  userId: string,
  item: repo.ItemRow,
  inst: NewInstance,
  note: string | null = null,
  orderRequestId: string | null = null,
): Promise<ItemWithEtag> {
  const lab = (await findLabRow(trx, item.lab_id))!;
  if (lab.uses_instances !== 1)
    throw new AppError('conflict', 'This lab does not use instances: quantity, lot, expiry and location are on the item');
  await checkInstanceLocation(trx, lab.id, inst.locationId);
  await enforcePlacement(trx, lab.id, { locationId: inst.locationId ?? null }, [incomingOf(item, null, inst.quantity)]);
  const now = nowIso();
  const instanceId = await insertInstanceRow(trx, lab.id, item.id, inst, now);
  await repo.touchItem(trx, item.id, { userId, now });
  await recordHistory(trx, { itemId: item.id, userId, now }, [
    { instanceId, field: 'instance.added', new: inst.quantity, note, orderRequestId },
  ]);
  return finishItemChange(trx, deps, item.id);
}

/** Adds an instance to an item the actor sees, as them (the demo seed and test fixtures; the API's is addItemInstance). */
export async function addInstance(deps: ServiceDeps, actor: Actor, itemId: string, inst: NewInstance): Promise<InventoryItem> {
  return deps.db.transaction().execute(async (trx) => {
    const item = await repo.findVisibleItem(trx, actor, itemId);
    if (!item) throw notFound('inventory item');
    return (await addInstanceIn(trx, deps, actor.userId, item, inst)).item;
  });
}

/** POST /inventory-items/{id}/instances. */
export async function addItemInstance(
  deps: ServiceDeps,
  actor: Actor,
  itemId: string,
  input: InstanceCreate,
  ifMatch?: string,
): Promise<ItemWithEtag> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockVisibleItem(trx, actor, itemId);
    if (!ifMatchSatisfied(ifMatch, row.version)) throw preconditionFailed();
    return addInstanceIn(trx, deps, actor.userId, row, {
      quantity: input.quantity,
      lotNumber: input.lot_number,
      expirationDate: input.expiration_date,
      locationId: input.location_id,
    });
  });
}

/** PATCH /inventory-items/{itemId}/instances/{itemInstanceId}: the fields given change; history per field. */
export async function editItemInstance(
  deps: ServiceDeps,
  actor: Actor,
  itemId: string,
  instanceId: string,
  input: InstanceEdit,
  ifMatch?: string,
): Promise<ItemWithEtag> {
  return deps.db.transaction().execute(async (trx) => {
    const { row, instance } = await lockInstance(trx, actor, itemId, instanceId, ifMatch);
    return editInstanceIn(trx, deps, actor, row, instance, input);
  });
}

/** The caller's item (locked, its ETag compared) and its active instance; 404 for either unseen. */
export async function lockInstance(trx: Executor, actor: Actor, itemId: string, instanceId: string, ifMatch: string | undefined) {
  const row = await lockVisibleItem(trx, actor, itemId);
  const instance = await repo.findActiveInstance(trx, itemId, instanceId);
  if (!instance) throw notFound('inventory item instance');
  if (!ifMatchSatisfied(ifMatch, row.version)) throw preconditionFailed();
  return { row, instance };
}

/**
 * Changes the fields given inside the caller's transaction (after lockInstance), with a history line per field. An
 * instance waiting to be put away leaves the list once its lot, expiry and location are all known, or with
 * `putAway` (the person confirmed it has no more to fill in: one `instance.put_away` history line).
 */
export async function editInstanceIn(
  trx: Executor,
  deps: ServiceDeps,
  actor: Actor,
  row: repo.ItemRow,
  instance: repo.InstanceRow,
  input: InstanceEdit,
  opts: { putAway?: boolean } = {},
): Promise<ItemWithEtag> {
  await checkInstanceLocation(trx, row.lab_id, input.location_id);
  const target = input.location_id === undefined ? instance.location_id : input.location_id;
  const quantity = input.quantity ?? instance.quantity;
  if (target !== instance.location_id || dec(quantity).greaterThan(instance.quantity)) {
    await enforcePlacement(trx, row.lab_id, { locationId: target }, [incomingOf(row, instance.id, quantity)]);
  }
  const set: Partial<repo.InstanceRow> = {};
  const changes: HistoryEntry[] = [];
  for (const f of ['quantity', 'lot_number', 'expiration_date', 'location_id'] as const) {
    if (input[f] === undefined || input[f] === instance[f]) continue;
    (set as Record<string, unknown>)[f] = input[f];
    changes.push({ field: `instance.${f}`, old: instance[f], new: input[f] ?? null });
  }
  const due = instance.put_away_due_at != null;
  const putAway = due && (opts.putAway || isComplete({ ...instance, ...set }));
  if (putAway) {
    set.put_away_due_at = null;
    changes.push({ field: 'instance.put_away', old: null, new: null });
  }
  if (changes.length === 0) return asItIs(trx, deps, row);
  const now = nowIso();
  await repo.updateInstance(trx, instance.id, set, now);
  await recordHistory(
    trx,
    { itemId: row.id, userId: actor.userId, now },
    changes.map((c) => ({ ...c, instanceId: instance.id })),
  );
  // Confirming alone changes nothing the item shows (the put-away state is not a field of it): no new version, no event.
  if (changes.length === 1 && putAway) return asItIs(trx, deps, row);
  await repo.touchItem(trx, row.id, { userId: actor.userId, now });
  return finishItemChange(trx, deps, row.id);
}

/** Archived instances leave the item's instances and its quantity, and are never listed again. */
export async function archiveItemInstance(
  deps: ServiceDeps,
  actor: Actor,
  itemId: string,
  instanceId: string,
  ifMatch?: string,
  reason: string | null = null,
): Promise<ItemWithEtag> {
  return deps.db.transaction().execute(async (trx) => {
    const { row, instance } = await lockInstance(trx, actor, itemId, instanceId, ifMatch);
    const now = nowIso();
    await repo.updateInstance(trx, instance.id, { archived_at: now, put_away_due_at: null }, now);
    await repo.touchItem(trx, row.id, { userId: actor.userId, now });
    await recordHistory(trx, { itemId: row.id, userId: actor.userId, now }, [
      { instanceId: instance.id, field: 'instance.archived', old: instance.quantity, note: reason },
    ]);
    return finishItemChange(trx, deps, row.id);
  });
}
