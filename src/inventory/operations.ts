import { sql } from 'kysely';
import { userSummaries } from '../accounts/repository.js';
import { emitEvent } from '../events/outbox.js';
import { findLabRow, findVisibleLab } from '../labs/repository.js';
import { assertLabNotMigrating } from '../labs/migration.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import { addDecimals, dec } from '../shared/decimal.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, type FieldError, notFound, validation } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { InventoryItem } from '../shared/schemas.js';
import { nowIso } from '../shared/time.js';
import { findTypeInLab } from '../types/repository.js';
import { renderItem } from './render.js';
import * as repo from './repository.js';
import { etagOf, ifMatchSatisfied } from './rules.js';
import { addInstanceIn, checkInstanceLocation, createItemIn, finishItemChange, type ItemWithEtag, type NewInstance, preconditionFailed } from './service.js';

// The application operations behind the inventory events (PRODUCT §5): create, edit and delete items; add, edit
// and archive instances; relative adjustments; history. Every change bumps the item's version (its ETag),
// records who changed what, and emits its event in the same transaction.

const EDITABLE = ['name', 'vendor', 'catalog_number', 'price', 'unit_size', 'url', 'technical_details', 'auto_reminder', 'cas_number', 'serial_number', 'vendor_product_id', 'type_id'] as const;
const LEGACY_ONLY = ['quantity', 'lot_number', 'expiration_date', 'location', 'sublocation'] as const;
type Editable = (typeof EDITABLE)[number];

export interface ItemFields {
  name?: string;
  vendor?: string | null;
  catalog_number?: string | null;
  price?: string | null;
  unit_size?: string | null;
  url?: string | null;
  technical_details?: string | null;
  auto_reminder?: string | null;
  cas_number?: string | null;
  serial_number?: string | null;
  vendor_product_id?: string | null;
  type_id?: string | null;
  quantity?: string;
  lot_number?: string | null;
  expiration_date?: string | null;
  location?: { name: string } | null;
  sublocation?: { name: string } | null;
}

const usesInstancesError = (fields: string[]) =>
  validation(fields.map((field) => ({ field, message: 'this lab uses instances: set it on an instance instead' })));

async function checkType(trx: Executor, labId: string, typeId: string | null | undefined): Promise<void> {
  if (typeId && !(await findTypeInLab(trx, labId, typeId))) throw notFound('type in that lab');
}

async function lockVisibleItem(trx: Executor, actor: Actor, id: string): Promise<repo.ItemRow> {
  const row = await repo.findVisibleItem(trx, actor, id, { lock: true });
  if (!row) throw notFound('inventory item');
  await assertLabNotMigrating(trx, row.lab_id); // under the item's lock: 409 lab_migrating while the lab migrates
  return row;
}

export async function createInventoryItem(deps: ServiceDeps, actor: Actor, input: ItemFields & { lab_id: string; name: string; instances?: { quantity: string; lot_number?: string | null; expiration_date?: string | null; location_id?: string | null }[] }): Promise<ItemWithEtag> {
  return deps.db.transaction().execute(async (trx) => {
    const lab = await findVisibleLab(trx, actor, input.lab_id);
    if (!lab) throw notFound('lab');
    if (lab.uses_instances) {
      const legacy = LEGACY_ONLY.filter((f) => input[f] !== undefined && input[f] !== null);
      if (legacy.length > 0) throw usesInstancesError(legacy);
    } else if (input.instances && input.instances.length > 0) {
      throw validation([{ field: 'instances', message: 'this lab does not use instances: give quantity, lot_number, expiration_date and location on the item' }]);
    }
    await checkType(trx, lab.id, input.type_id);
    const item = await createItemIn(trx, deps, actor.userId, {
      labId: lab.id, name: input.name, typeId: input.type_id ?? null, vendor: input.vendor, catalogNumber: input.catalog_number,
      price: input.price, unitSize: input.unit_size, quantity: input.quantity ?? '0', url: input.url, technicalDetails: input.technical_details,
      expirationDate: input.expiration_date, lotNumber: input.lot_number, casNumber: input.cas_number, vendorProductId: input.vendor_product_id,
      locationName: input.location?.name ?? null, sublocationName: input.sublocation?.name ?? null, serialNumber: input.serial_number, autoReminder: input.auto_reminder,
    }, (input.instances ?? []).map((i): NewInstance => ({ quantity: i.quantity, lotNumber: i.lot_number, expirationDate: i.expiration_date, locationId: i.location_id })));
    const row = (await repo.findItem(trx, item.id))!;
    return { item, etag: etagOf(row.version) };
  });
}

/** PATCH /inventory-items/{id}: the fields given change, the others stay; history per field. */
export async function editInventoryItem(deps: ServiceDeps, actor: Actor, id: string, input: ItemFields, ifMatch?: string): Promise<ItemWithEtag> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockVisibleItem(trx, actor, id);
    if (!ifMatchSatisfied(ifMatch, row.version)) throw preconditionFailed();
    const lab = (await findLabRow(trx, row.lab_id))!;
    const migrated = lab.uses_instances === 1;
    if (migrated) {
      const legacy = LEGACY_ONLY.filter((f) => input[f] !== undefined);
      if (legacy.length > 0) throw usesInstancesError(legacy);
    }
    await checkType(trx, lab.id, input.type_id);
    const set: Partial<repo.ItemRow> = {};
    const changes: { field: string; old: string | null; new: string | null }[] = [];
    const put = (column: keyof repo.ItemRow, field: string, value: string | null) => {
      const old = row[column] as string | null;
      if (old === value) return;
      (set as Record<string, unknown>)[column] = value;
      changes.push({ field, old, new: value });
    };
    for (const f of EDITABLE) if (input[f] !== undefined) put(f as Editable, f, input[f] as string | null);
    if (input.quantity !== undefined) put('quantity', 'quantity', input.quantity);
    if (input.lot_number !== undefined) put('lot_number', 'lot_number', input.lot_number);
    if (input.expiration_date !== undefined) put('expiration_date', 'expiration_date', input.expiration_date);
    if (input.location !== undefined) put('location_name', 'location', input.location?.name ?? null);
    if (input.sublocation !== undefined) put('sublocation_name', 'sublocation', input.sublocation?.name ?? null);
    if (changes.length === 0) return { item: await renderItem(trx, deps.config.appUrl, row), etag: etagOf(row.version) };
    const now = nowIso();
    await trx.updateTable('inventory_items').set({ ...set, updated_by: actor.userId, updated_at: now, version: sql<number>`version + 1` }).where('id', '=', row.id).execute();
    await repo.insertChanges(trx, changes.map((c) => ({ id: newId(), item_id: row.id, instance_id: null, user_id: actor.userId, field: c.field, old_value: c.old, new_value: c.new, note: null, created_at: now })));
    return finishItemChange(trx, deps, row.id);
  });
}

/** DELETE /inventory-items/{id}: the item, its instances and history; inventory-item.deleted carries its last state. */
export async function deleteInventoryItem(deps: ServiceDeps, actor: Actor, id: string, ifMatch?: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await lockVisibleItem(trx, actor, id);
    if (!ifMatchSatisfied(ifMatch, row.version)) throw preconditionFailed();
    const last = await renderItem(trx, deps.config.appUrl, row);
    const lab = (await findLabRow(trx, row.lab_id))!;
    await trx.deleteFrom('inventory_item_changes').where('item_id', '=', row.id).execute();
    await trx.deleteFrom('inventory_item_instances').where('item_id', '=', row.id).execute();
    await trx.deleteFrom('inventory_items').where('id', '=', row.id).execute();
    await emitEvent(trx, deps.config, { type: 'inventory-item.deleted', organizationId: lab.organization_id, labId: lab.id, resource: last });
  });
}

export async function addItemInstance(deps: ServiceDeps, actor: Actor, itemId: string, input: { quantity: string; lot_number?: string | null; expiration_date?: string | null; location_id?: string | null }, ifMatch?: string): Promise<ItemWithEtag> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockVisibleItem(trx, actor, itemId);
    if (!ifMatchSatisfied(ifMatch, row.version)) throw preconditionFailed();
    return addInstanceIn(trx, deps, actor.userId, row, { quantity: input.quantity, lotNumber: input.lot_number, expirationDate: input.expiration_date, locationId: input.location_id });
  });
}

export async function editItemInstance(deps: ServiceDeps, actor: Actor, itemId: string, instanceId: string, input: { quantity?: string; lot_number?: string | null; expiration_date?: string | null; location_id?: string | null }, ifMatch?: string): Promise<ItemWithEtag> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockVisibleItem(trx, actor, itemId);
    const instance = await repo.findActiveInstance(trx, itemId, instanceId);
    if (!instance) throw notFound('inventory item instance');
    if (!ifMatchSatisfied(ifMatch, row.version)) throw preconditionFailed();
    await checkInstanceLocation(trx, row.lab_id, input.location_id);
    const set: Partial<repo.InstanceRow> = {};
    const changes: { field: string; old: string | null; new: string | null }[] = [];
    for (const f of ['quantity', 'lot_number', 'expiration_date', 'location_id'] as const) {
      if (input[f] === undefined || input[f] === instance[f]) continue;
      (set as Record<string, unknown>)[f] = input[f];
      changes.push({ field: `instance.${f}`, old: instance[f], new: input[f] ?? null });
    }
    if (changes.length === 0) return { item: await renderItem(trx, deps.config.appUrl, row), etag: etagOf(row.version) };
    const now = nowIso();
    await trx.updateTable('inventory_item_instances').set({ ...set, updated_at: now }).where('id', '=', instance.id).execute();
    await repo.touchItem(trx, row.id, { userId: actor.userId, now });
    await repo.insertChanges(trx, changes.map((c) => ({ id: newId(), item_id: row.id, instance_id: instance.id, user_id: actor.userId, field: c.field, old_value: c.old, new_value: c.new, note: null, created_at: now })));
    return finishItemChange(trx, deps, row.id);
  });
}

/** Archived instances leave the item's instances and its quantity, and are never listed again. */
export async function archiveItemInstance(deps: ServiceDeps, actor: Actor, itemId: string, instanceId: string, ifMatch?: string): Promise<ItemWithEtag> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockVisibleItem(trx, actor, itemId);
    const instance = await repo.findActiveInstance(trx, itemId, instanceId);
    if (!instance) throw notFound('inventory item instance');
    if (!ifMatchSatisfied(ifMatch, row.version)) throw preconditionFailed();
    const now = nowIso();
    await trx.updateTable('inventory_item_instances').set({ archived_at: now, updated_at: now }).where('id', '=', instance.id).execute();
    await repo.touchItem(trx, row.id, { userId: actor.userId, now });
    await repo.insertChanges(trx, [{ id: newId(), item_id: row.id, instance_id: instance.id, user_id: actor.userId, field: 'instance.archived', old_value: instance.quantity, new_value: null, note: null, created_at: now }]);
    return finishItemChange(trx, deps, row.id);
  });
}

export const SIGNED_DECIMAL_PATTERN = '^-?\\d{1,20}(\\.\\d{1,10})?$';

/**
 * POST /inventory-items/{id}/adjustments {delta, note, instance_id?}: adds (or with a minus, removes) an amount
 * relative to the current quantity, read under the row lock, so concurrent adjustments never lose one another.
 * Refuses to go below zero. In a migrated lab it adjusts one instance (instance_id).
 */
export async function adjustQuantity(deps: ServiceDeps, actor: Actor, itemId: string, input: { delta: string; note?: string; instance_id?: string }): Promise<ItemWithEtag> {
  if (dec(input.delta).isZero()) throw validation([{ field: 'delta', message: 'must not be zero' }]);
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockVisibleItem(trx, actor, itemId);
    const lab = (await findLabRow(trx, row.lab_id))!;
    const now = nowIso();
    const errors: FieldError[] = [];
    if (lab.uses_instances === 1 && !input.instance_id) errors.push({ field: 'instance_id', message: 'this lab uses instances: name the instance to adjust' });
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
      throw new AppError('conflict', `Not enough: the quantity is ${current}, and ${input.delta} would take it below zero`, { extra: { errors: [{ field: 'delta', message: `at least -${current}` }] } });
    }
    if (instance) {
      await trx.updateTable('inventory_item_instances').set({ quantity: next, updated_at: now }).where('id', '=', instance.id).execute();
      await repo.touchItem(trx, row.id, { userId: actor.userId, now });
    } else {
      await repo.touchItem(trx, row.id, { userId: actor.userId, now, set: { quantity: next } });
    }
    await repo.insertChanges(trx, [{ id: newId(), item_id: row.id, instance_id: instance?.id ?? null, user_id: actor.userId, field: instance ? 'instance.quantity' : 'quantity', old_value: current, new_value: next, note: input.note ?? null, created_at: now }]);
    return finishItemChange(trx, deps, row.id);
  });
}

export async function itemHistory(deps: ServiceDeps, actor: Actor, itemId: string) {
  const row = await repo.findVisibleItem(deps.db, actor, itemId);
  if (!row) throw notFound('inventory item');
  const changes = await deps.db.selectFrom('inventory_item_changes').selectAll().where('item_id', '=', row.id).orderBy('created_at').orderBy('id').execute();
  const users = await userSummaries(deps.db, changes.map((c) => c.user_id));
  return changes.map((c) => ({
    id: c.id, field: c.field, old_value: c.old_value, new_value: c.new_value, note: c.note, instance_id: c.instance_id,
    changed_at: c.created_at, changed_by: users.get(c.user_id) ?? null,
  }));
}

export type { InventoryItem };
