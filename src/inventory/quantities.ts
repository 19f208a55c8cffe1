import { isMigrating, labMigrating } from '../labs/migrating.js';
import { findLabRow, lockLab } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import { addDecimals, dec } from '../shared/decimal.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, type FieldError, notFound, validation } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import { asItIs, finishItemChange, type ItemWithEtag, lockVisibleItem, preconditionFailed } from './changes.js';
import { recordHistory } from './history-rows.js';
import type { Identifiers } from './identifiers.js';
import { addInstanceIn, type NewInstance } from './instances.js';
import { createItemIn } from './items.js';
import { enforcePlacement, incomingOf } from './placement.js';
import { setInstanceQuantityFast } from './quantity-fast.js';
import * as repo from './repository.js';
import { ifMatchSatisfied } from './rules.js';
import type { Adjustment, InstanceQuantity, InventoryItem, ItemQuantity } from './schemas.js';

// How much there is: set (the contract's two PUTs), adjusted relative to what is there, and received from an order.

/** PUT /inventory-items/{id}: sets a legacy lab item's quantity (deprecated; 409 in migrated labs). */
export async function updateItemQuantity(
  deps: ServiceDeps,
  actor: Actor,
  id: string,
  body: ItemQuantity,
  ifMatch?: string,
): Promise<ItemWithEtag> {
  return deps.db.transaction().execute(async (trx) => {
    // Locked first, so the lab's mode read next cannot change under this write: a lab migration converts the item
    // (and flips the lab) only with the item's lock, after this commits.
    const row = await repo.findVisibleItem(trx, actor, id, { lock: true });
    if (!row) throw notFound('inventory item');
    const lab = (await findLabRow(trx, row.lab_id))!;
    if (isMigrating(lab)) throw labMigrating();
    if (!ifMatchSatisfied(ifMatch, row.version)) throw preconditionFailed();
    if (body.quantity !== undefined && lab.uses_instances === 1) {
      throw new AppError(
        'lab_uses_instances',
        'This lab uses instances: update quantities with PUT /inventory-items/{itemId}/instances/{itemInstanceId}',
        { extra: { allowed: ['PUT /inventory-items/{itemId}/instances/{itemInstanceId}'] } },
      );
    }
    if (body.quantity === undefined || body.quantity === row.quantity) return asItIs(trx, deps, row);
    const now = nowIso();
    const applied = await repo.touchItem(trx, row.id, {
      userId: actor.userId,
      now,
      expectedVersion: ifMatch ? row.version : undefined,
      set: { quantity: body.quantity },
    });
    if (!applied) throw preconditionFailed();
    await recordHistory(trx, { itemId: row.id, userId: actor.userId, now }, [{ field: 'quantity', old: row.quantity, new: body.quantity }]);
    return finishItemChange(trx, deps, row.id);
  });
}

/** PUT /inventory-items/{itemId}/instances/{itemInstanceId}: sets one active instance's quantity. */
export async function updateInstanceQuantity(
  deps: ServiceDeps,
  actor: Actor,
  itemId: string,
  instanceId: string,
  body: InstanceQuantity,
  ifMatch?: string,
): Promise<ItemWithEtag> {
  return deps.db.transaction().execute(async (trx) => {
    const fast = await setInstanceQuantityFast(trx, deps, actor, itemId, instanceId, body, ifMatch);
    if (fast !== 'no-document') return fast;
    // An item whose document is not stored yet (src/inventory/stored/rebuild.ts writes them): rendered as it changes.
    const row = await repo.findVisibleItem(trx, actor, itemId);
    if (!row) throw notFound('inventory item');
    const instance = await repo.findActiveInstance(trx, itemId, instanceId);
    if (!instance) throw notFound('inventory item instance');
    if (!ifMatchSatisfied(ifMatch, row.version)) throw preconditionFailed();
    if (instance.quantity === body.quantity) return asItIs(trx, deps, row);
    await enforcePlacement(trx, row.lab_id, { locationId: instance.location_id }, [incomingOf(row, instance.id, body.quantity)]);
    const now = nowIso();
    const applied = await repo.touchItem(trx, row.id, { userId: actor.userId, now, expectedVersion: ifMatch ? row.version : undefined });
    if (!applied) throw preconditionFailed();
    await repo.setInstanceQuantity(trx, instance.id, body.quantity, now);
    await recordHistory(trx, { itemId: row.id, userId: actor.userId, now }, [
      { instanceId: instance.id, field: 'instance.quantity', old: instance.quantity, new: body.quantity },
    ]);
    return finishItemChange(trx, deps, row.id);
  });
}

/**
 * POST /inventory-items/{id}/adjustments {delta, note, instance_id?}: adds (or with a minus, removes) an amount
 * relative to the current quantity, read under the row lock, so concurrent adjustments never lose one another.
 * Refuses to go below zero. In a migrated lab it adjusts one instance (instance_id).
 */
export async function adjustQuantity(deps: ServiceDeps, actor: Actor, itemId: string, input: Adjustment): Promise<ItemWithEtag> {
  if (dec(input.delta).isZero()) throw validation([{ field: 'delta', message: 'must not be zero' }]);
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockVisibleItem(trx, actor, itemId);
    const lab = (await findLabRow(trx, row.lab_id))!;
    const now = nowIso();
    const errors: FieldError[] = [];
    if (lab.uses_instances === 1 && !input.instance_id)
      errors.push({ field: 'instance_id', message: 'this lab uses instances: name the instance to adjust' });
    if (lab.uses_instances !== 1 && input.instance_id) errors.push({ field: 'instance_id', message: 'this lab does not use instances' });
    if (errors.length > 0) throw validation(errors);
    let instance: repo.InstanceRow | undefined;
    if (input.instance_id) {
      instance = await repo.findActiveInstanceLocked(trx, row.id, input.instance_id);
      if (!instance) throw notFound('inventory item instance');
    }
    const current = instance ? instance.quantity : row.quantity;
    const next = addDecimals(current, input.delta);
    if (dec(next).isNegative()) {
      throw new AppError('conflict', `Not enough: the quantity is ${current}, and ${input.delta} would take it below zero`, {
        extra: { errors: [{ field: 'delta', message: `at least -${current}` }] },
      });
    }
    // More in a container is more in its control areas (docs/safety.md): checked as a larger quantity is.
    if (instance && dec(input.delta).greaterThan(0))
      await enforcePlacement(trx, row.lab_id, { locationId: instance.location_id }, [incomingOf(row, instance.id, next)]);
    if (instance) {
      await repo.setInstanceQuantity(trx, instance.id, next, now);
      await repo.touchItem(trx, row.id, { userId: actor.userId, now });
    } else {
      await repo.touchItem(trx, row.id, { userId: actor.userId, now, set: { quantity: next } });
    }
    await recordHistory(trx, { itemId: row.id, userId: actor.userId, now }, [
      { instanceId: instance?.id, field: instance ? 'instance.quantity' : 'quantity', old: current, new: next, note: input.note },
    ]);
    return finishItemChange(trx, deps, row.id);
  });
}

export interface ReceivedGoods {
  labId: string;
  userId: string;
  name: string;
  vendor: string;
  catalogNumber: string;
  quantity: string;
  typeId: string | null;
  unitPrice: string | null;
  unitSize: string | null;
  vendorProductId: string | null;
  lotNumber?: string | null;
  expirationDate?: string | null;
  locationId?: string | null;
  note: string;
  /** The order request received: its history entry here links back to it (migration 0029). */
  orderRequestId?: string | null;
  /** GTIN and serial from the vendor's barcode: stored with the new instance (a lab that uses instances). */
  identifiers?: Identifiers;
}

/**
 * Adds received goods to the lab's inventory inside the caller's transaction: into the lab's item with the same
 * vendor and catalog number (legacy: its quantity grows; migrated: a new instance), else into a new item.
 */
export async function receiveGoodsIn(trx: Executor, deps: ServiceDeps, goods: ReceivedGoods): Promise<InventoryItem> {
  // Receipts into one lab are serialized, so two of the same new product make one item, not two.
  await lockLab(trx, goods.labId);
  const lab = (await findLabRow(trx, goods.labId))!;
  const migrated = lab.uses_instances === 1;
  const existing = await repo.findItemByCatalog(trx, goods.labId, goods.vendor, goods.catalogNumber);
  const instance: NewInstance = {
    quantity: goods.quantity,
    lotNumber: goods.lotNumber,
    expirationDate: goods.expirationDate,
    locationId: goods.locationId,
    putAwayDue: true,
    ...(goods.identifiers && migrated ? { identifiers: { ...goods.identifiers, userId: goods.userId } } : {}),
  };
  // Where the goods go is checked as any placement is (src/inventory/placement.ts): a new item's first instance in
  // createItemIn (with its type's hazards), another instance in addInstanceIn.
  if (!existing) {
    const item = await createItemIn(
      trx,
      deps,
      goods.userId,
      {
        labId: goods.labId,
        name: goods.name,
        vendor: goods.vendor,
        catalogNumber: goods.catalogNumber,
        typeId: goods.typeId,
        price: goods.unitPrice,
        unitSize: goods.unitSize,
        vendorProductId: goods.vendorProductId,
        quantity: goods.quantity,
        lotNumber: goods.lotNumber,
        expirationDate: goods.expirationDate,
      },
      [instance],
    );
    // A new item's history starts with the receipt that made it, so the item says where it came from.
    await recordHistory(trx, { itemId: item.id, userId: goods.userId, now: nowIso() }, [
      { instanceId: item.instances[0]?.id, field: 'received', new: goods.quantity, note: goods.note, orderRequestId: goods.orderRequestId },
    ]);
    return item;
  }
  if (migrated) return (await addInstanceIn(trx, deps, goods.userId, existing, instance, goods.note, goods.orderRequestId ?? null)).item;
  const now = nowIso();
  const quantity = addDecimals(existing.quantity, goods.quantity);
  await repo.touchItem(trx, existing.id, { userId: goods.userId, now, set: { quantity } });
  await recordHistory(trx, { itemId: existing.id, userId: goods.userId, now }, [
    { field: 'quantity', old: existing.quantity, new: quantity, note: goods.note, orderRequestId: goods.orderRequestId },
  ]);
  return (await finishItemChange(trx, deps, existing.id)).item;
}
