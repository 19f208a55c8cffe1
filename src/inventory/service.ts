import { emitEvent } from '../events/outbox.js';
import { findLabRow } from '../labs/repository.js';
import { assertLabNotMigrating, labMigrating } from '../labs/migration.js';
import { isMigrating } from '../labs/migration-rules.js';
import { findLocation } from '../locations/repository.js';
import type { Actor } from '../shared/actor.js';
import { type Executor, lockLab } from '../shared/db/database.js';
import { addDecimals } from '../shared/decimal.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import type { InventoryItem } from '../shared/schemas.js';
import { nowIso } from '../shared/time.js';
import { renderItem, renderItems } from './render.js';
import * as repo from './repository.js';
import { etagOf, ifMatchSatisfied } from './rules.js';

export interface ItemWithEtag {
  item: InventoryItem;
  etag: string;
}

export async function listItems(deps: ServiceDeps, actor: Actor, filter: { labId?: string }, page: Page) {
  const { total, rows } = await repo.listVisibleItems(deps.db, actor, filter, page);
  return { total, items: await renderItems(deps.db, deps.config.appUrl, rows) };
}

export async function getItem(deps: ServiceDeps, actor: Actor, id: string): Promise<ItemWithEtag> {
  const row = await repo.findVisibleItem(deps.db, actor, id);
  if (!row) throw notFound('inventory item');
  return { item: await renderItem(deps.db, deps.config.appUrl, row), etag: etagOf(row.version) };
}

export const preconditionFailed = () => new AppError('precondition_failed', 'The item changed since you read it (If-Match does not match its ETag); fetch it again and retry');

/** Re-reads and renders the item inside the transaction, emits inventory-item.updated, returns it with its ETag. */
export async function finishItemChange(trx: Executor, deps: ServiceDeps, itemId: string): Promise<ItemWithEtag> {
  const row = (await repo.findItem(trx, itemId))!;
  const lab = (await findLabRow(trx, row.lab_id))!;
  // Checked here, after the change wrote the item row (and so holds its lock): 409 rolls it back during a migration.
  if (isMigrating(lab)) throw labMigrating();
  const item = await renderItem(trx, deps.config.appUrl, row);
  await emitEvent(trx, deps.config, { type: 'inventory-item.updated', organizationId: lab.organization_id, labId: lab.id, resource: item });
  return { item, etag: etagOf(row.version) };
}

/** PUT /inventory-items/{id}: sets a legacy lab item's quantity (deprecated; 409 in migrated labs). */
export async function updateItemQuantity(deps: ServiceDeps, actor: Actor, id: string, body: { quantity?: string }, ifMatch?: string): Promise<ItemWithEtag> {
  return deps.db.transaction().execute(async (trx) => {
    // Locked first, so the lab's mode read next cannot change under this write: a lab migration converts the item
    // (and flips the lab) only with the item's lock, after this commits.
    const row = await repo.findVisibleItem(trx, actor, id, { lock: true });
    if (!row) throw notFound('inventory item');
    const lab = (await findLabRow(trx, row.lab_id))!;
    if (isMigrating(lab)) throw labMigrating();
    if (!ifMatchSatisfied(ifMatch, row.version)) throw preconditionFailed();
    if (body.quantity !== undefined && lab.uses_instances === 1) {
      throw new AppError('lab_uses_instances',
        'This lab uses instances: update quantities with PUT /inventory-items/{itemId}/instances/{itemInstanceId}',
        { extra: { allowed: ['PUT /inventory-items/{itemId}/instances/{itemInstanceId}'] } });
    }
    if (body.quantity === undefined || body.quantity === row.quantity) {
      return { item: await renderItem(trx, deps.config.appUrl, row), etag: etagOf(row.version) };
    }
    const now = nowIso();
    const applied = await repo.touchItem(trx, row.id, { userId: actor.userId, now, expectedVersion: ifMatch ? row.version : undefined, set: { quantity: body.quantity } });
    if (!applied) throw preconditionFailed();
    await repo.insertChanges(trx, [{ id: newId(), item_id: row.id, instance_id: null, user_id: actor.userId, field: 'quantity', old_value: row.quantity, new_value: body.quantity, note: null, created_at: now }]);
    return finishItemChange(trx, deps, row.id);
  });
}

/** PUT /inventory-items/{itemId}/instances/{itemInstanceId}: sets one active instance's quantity. */
export async function updateInstanceQuantity(
  deps: ServiceDeps, actor: Actor, itemId: string, instanceId: string, body: { quantity: string }, ifMatch?: string,
): Promise<ItemWithEtag> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.findVisibleItem(trx, actor, itemId);
    if (!row) throw notFound('inventory item');
    const instance = await repo.findActiveInstance(trx, itemId, instanceId);
    if (!instance) throw notFound('inventory item instance');
    if (!ifMatchSatisfied(ifMatch, row.version)) throw preconditionFailed();
    if (instance.quantity === body.quantity) return { item: await renderItem(trx, deps.config.appUrl, row), etag: etagOf(row.version) };
    const now = nowIso();
    const applied = await repo.touchItem(trx, row.id, { userId: actor.userId, now, expectedVersion: ifMatch ? row.version : undefined });
    if (!applied) throw preconditionFailed();
    await repo.setInstanceQuantity(trx, instance.id, body.quantity, now);
    await repo.insertChanges(trx, [{ id: newId(), item_id: row.id, instance_id: instance.id, user_id: actor.userId, field: 'instance.quantity', old_value: instance.quantity, new_value: body.quantity, note: null, created_at: now }]);
    return finishItemChange(trx, deps, row.id);
  });
}

export interface NewItem {
  labId: string;
  name: string;
  typeId?: string | null;
  vendor?: string | null;
  catalogNumber?: string | null;
  price?: string | null;
  unitSize?: string | null;
  quantity?: string;
  url?: string | null;
  technicalDetails?: string | null;
  expirationDate?: string | null;
  lotNumber?: string | null;
  casNumber?: string | null;
  vendorProductId?: string | null;
  locationName?: string | null;
  sublocationName?: string | null;
  serialNumber?: string | null;
  autoReminder?: string | null;
}

export interface NewInstance {
  quantity: string;
  lotNumber?: string | null;
  expirationDate?: string | null;
  locationId?: string | null;
}

/**
 * Creates an item (and, in a migrated lab, its first instances) inside the caller's transaction and emits
 * inventory-item.created. Legacy-only fields are ignored in migrated labs, where they are always empty.
 */
export async function createItemIn(trx: Executor, deps: ServiceDeps, userId: string, input: NewItem, instances: NewInstance[] = []): Promise<InventoryItem> {
  const lab = await findLabRow(trx, input.labId);
  if (!lab) throw notFound('lab');
  await assertLabNotMigrating(trx, lab.id, { share: true });
  const migrated = lab.uses_instances === 1;
  const now = nowIso();
  const row: repo.ItemRow = {
    id: newId(), lab_id: lab.id, type_id: input.typeId ?? null, name: input.name, vendor: input.vendor ?? null,
    catalog_number: input.catalogNumber ?? null, price: input.price ?? null, unit_size: input.unitSize ?? null,
    quantity: migrated ? '0' : input.quantity ?? '0', url: input.url ?? null, technical_details: input.technicalDetails ?? null,
    expiration_date: migrated ? null : input.expirationDate ?? null, auto_reminder: input.autoReminder ?? null,
    lot_number: migrated ? null : input.lotNumber ?? null, cas_number: input.casNumber ?? null,
    vendor_product_id: input.vendorProductId ?? null, location_name: migrated ? null : input.locationName ?? null,
    sublocation_name: migrated ? null : input.sublocationName ?? null, serial_number: input.serialNumber ?? null,
    added_by: userId, updated_by: userId, version: 1, created_at: now, updated_at: now,
  };
  await repo.insertItem(trx, row);
  if (migrated) for (const inst of instances) await insertInstanceRow(trx, lab.id, row.id, inst, now);
  const item = await renderItem(trx, deps.config.appUrl, row);
  await emitEvent(trx, deps.config, { type: 'inventory-item.created', organizationId: lab.organization_id, labId: lab.id, resource: item });
  return item;
}

/** A location given for an instance must be in the item's lab. */
export async function checkInstanceLocation(trx: Executor, labId: string, locationId: string | null | undefined): Promise<void> {
  if (!locationId) return;
  const location = await findLocation(trx, locationId);
  if (!location || location.lab_id !== labId) throw notFound('location');
}

async function insertInstanceRow(trx: Executor, labId: string, itemId: string, inst: NewInstance, now: string): Promise<string> {
  await checkInstanceLocation(trx, labId, inst.locationId);
  const id = newId();
  await repo.insertInstance(trx, {
    id, item_id: itemId, quantity: inst.quantity, lot_number: inst.lotNumber ?? null, expiration_date: inst.expirationDate ?? null,
    location_id: inst.locationId ?? null, archived_at: null, created_at: now, updated_at: now,
  });
  return id;
}

export const createItem = (deps: ServiceDeps, userId: string, input: NewItem, instances: NewInstance[] = []) =>
  deps.db.transaction().execute((trx) => createItemIn(trx, deps, userId, input, instances));

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
  const instance: NewInstance = { quantity: goods.quantity, lotNumber: goods.lotNumber, expirationDate: goods.expirationDate, locationId: goods.locationId };
  if (!existing) {
    return createItemIn(trx, deps, goods.userId, {
      labId: goods.labId, name: goods.name, vendor: goods.vendor, catalogNumber: goods.catalogNumber, typeId: goods.typeId,
      price: goods.unitPrice, unitSize: goods.unitSize, vendorProductId: goods.vendorProductId, quantity: goods.quantity,
      lotNumber: goods.lotNumber, expirationDate: goods.expirationDate,
    }, [instance]);
  }
  if (migrated) return (await addInstanceIn(trx, deps, goods.userId, existing, instance, goods.note)).item;
  const now = nowIso();
  const quantity = addDecimals(existing.quantity, goods.quantity);
  await repo.touchItem(trx, existing.id, { userId: goods.userId, now, set: { quantity } });
  await repo.insertChanges(trx, [{ id: newId(), item_id: existing.id, instance_id: null, user_id: goods.userId, field: 'quantity', old_value: existing.quantity, new_value: quantity, note: goods.note, created_at: now }]);
  return (await finishItemChange(trx, deps, existing.id)).item;
}

/**
 * Adds an instance to an item inside the caller's transaction (labs that use instances only: 409 otherwise),
 * records it in the history and emits inventory-item.updated. The API, receiving and the demo all come here.
 */
export async function addInstanceIn(trx: Executor, deps: ServiceDeps, userId: string, item: repo.ItemRow, inst: NewInstance, note: string | null = null): Promise<ItemWithEtag> {
  const lab = (await findLabRow(trx, item.lab_id))!;
  if (lab.uses_instances !== 1) throw new AppError('conflict', 'This lab does not use instances: quantity, lot, expiry and location are on the item');
  const now = nowIso();
  const instanceId = await insertInstanceRow(trx, lab.id, item.id, inst, now);
  await repo.touchItem(trx, item.id, { userId, now });
  await repo.insertChanges(trx, [{ id: newId(), item_id: item.id, instance_id: instanceId, user_id: userId, field: 'instance.added', old_value: null, new_value: inst.quantity, note, created_at: now }]);
  return finishItemChange(trx, deps, item.id);
}

/** Adds an instance without a caller's visibility check (the demo seed and test fixtures). */
export async function addInstance(deps: ServiceDeps, userId: string, itemId: string, inst: NewInstance): Promise<InventoryItem> {
  return deps.db.transaction().execute(async (trx) => {
    const item = await repo.findItem(trx, itemId);
    if (!item) throw notFound('inventory item');
    return (await addInstanceIn(trx, deps, userId, item, inst)).item;
  });
}
