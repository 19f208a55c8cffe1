import { assertDeletable } from '../controlled/ledger.js';
import { emitEvent } from '../events/outbox.js';
import { assignCodes, retireItemCodes } from '../labels/repository.js';
import { assertLabNotMigrating } from '../labs/migrating.js';
import { findLabRow, findVisibleLab } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { notFound, validation } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import { nowIso } from '../shared/time.js';
import { findTypeInLab } from '../types/repository.js';
import { asItIs, finishItemChange, type ItemWithEtag, lockVisibleItem, preconditionFailed } from './changes.js';
import { type HistoryEntry, recordHistory } from './history-rows.js';
import { checkInstanceLocation, insertInstanceRow, type NewInstance } from './instances.js';
import { columnValue, newItemOf, newItemRow } from './item-row.js';
import { enforcePlacement, incomingOf } from './placement.js';
import { renderItem } from './render.js';
import * as repo from './repository.js';
import { etagOf, ifMatchSatisfied } from './rules.js';
import {
  type InventoryItem,
  ITEM_FIELD_KEYS,
  ITEM_FIELDS,
  type ItemCreate,
  type ItemEdit,
  LEGACY_ONLY_FIELDS,
  type NewItem,
} from './schemas.js';
import { listVisibleItems } from './search/list-repository.js';
import type { ItemFilter, ItemOrder } from './search/rules.js';
import { jsonArray, pageDocuments, readItemDocument, storeChanged } from './stored/documents.js';

// Items: listed, read, created (with their first instances in a lab that uses instances), edited, deleted, and
// their history (docs/product.md §5). Every change bumps the item's version (its ETag), records who changed what, and
// emits its event in the same transaction (changes.ts).

const usesInstancesError = (fields: string[]) =>
  validation(fields.map((field) => ({ field, message: 'this lab uses instances: set it on an instance instead' })));

async function checkType(trx: Executor, labId: string, typeId: string | null | undefined): Promise<void> {
  if (typeId && !(await findTypeInLab(trx, labId, typeId))) throw notFound('type in that lab');
}

/** GET /inventory-items: the visible items, filtered and sorted (src/inventory/search/rules.ts), a page of them. */
export async function listItems(deps: ServiceDeps, actor: Actor, filter: ItemFilter, order: ItemOrder, page: Page) {
  const { total, exact, rows } = await listVisibleItems(deps.db, actor, filter, order, page);
  return { total, exact, json: jsonArray(await pageDocuments(deps.db, deps.config.appUrl, rows)) };
}

/** GET /inventory-items/{id}: the item's stored document, as text, and its ETag. */
export const getItemDocument = (deps: ServiceDeps, actor: Actor, id: string) => readItemDocument(deps.db, deps.config.appUrl, actor, id);

/** The item as an object, for services that use its fields (a reorder). */
export async function getItem(deps: ServiceDeps, actor: Actor, id: string): Promise<ItemWithEtag> {
  const row = await repo.findVisibleItem(deps.db, actor, id);
  if (!row) throw notFound('inventory item');
  return asItIs(deps.db, deps, row);
}

export type { NewItem };

/**
 * Creates an item (and, in a migrated lab, its first instances) inside the caller's transaction and emits
 * inventory-item.created. Legacy-only fields are ignored in migrated labs, where they are always empty. It checks no
 * visibility: only inventory/'s own services call it, after theirs (createItem, createInventoryItem, receiveGoodsIn).
 */
export async function createItemIn(
  trx: Executor,
  deps: ServiceDeps,
  userId: string,
  input: NewItem,
  instances: NewInstance[] = [],
): Promise<InventoryItem> {
  const lab = await findLabRow(trx, input.labId);
  if (!lab) throw notFound('lab');
  await assertLabNotMigrating(trx, lab.id, { share: true });
  const migrated = lab.uses_instances === 1;
  const now = nowIso();
  const row = newItemRow({ ...input, labId: lab.id }, migrated, { id: newId(), userId, now });
  await repo.insertItem(trx, row);
  // A legacy lab's item is its one container: it gets the code (docs/labels.md); a migrated lab's instances get theirs.
  if (!migrated) await assignCodes(trx, 'item', lab.id, [row.id]);
  if (migrated) await insertCheckedInstances(trx, lab.id, row, instances, now);
  const item = await renderItem(trx, deps.config.appUrl, row);
  await storeChanged(trx, [{ row, item }]);
  await emitEvent(trx, deps.config, { type: 'inventory-item.created', organizationId: lab.organization_id, labId: lab.id, resource: item });
  return item;
}

/**
 * A new item's first instances, in the order given, each checked where it goes as an added container is
 * (docs/safety.md): its control areas locked, the check (refused in block mode), then its row, so the next one's
 * check counts it (two bottles in two places of one area count together).
 */
async function insertCheckedInstances(trx: Executor, labId: string, row: repo.ItemRow, instances: NewInstance[], now: string) {
  for (const inst of instances) {
    // The location is the lab's before anything is checked there: another lab's would tell of its containers.
    await checkInstanceLocation(trx, labId, inst.locationId);
    await enforcePlacement(trx, labId, { locationId: inst.locationId ?? null }, [incomingOf(row, null, inst.quantity)]);
    await insertInstanceRow(trx, labId, row.id, inst, now);
  }
}

/** Creates an item in a lab the actor sees, as them (the demo seed and test fixtures; the API's is createInventoryItem). */
export const createItem = (deps: ServiceDeps, actor: Actor, input: NewItem, instances: NewInstance[] = []) =>
  deps.db.transaction().execute(async (trx) => {
    if (!(await findVisibleLab(trx, actor, input.labId))) throw notFound('lab');
    return createItemIn(trx, deps, actor.userId, input, instances);
  });

/** POST /inventory-items: legacy fields in a legacy lab, instances in a lab that uses them (the other way is 422). */
export async function createInventoryItem(deps: ServiceDeps, actor: Actor, input: ItemCreate): Promise<ItemWithEtag> {
  return deps.db.transaction().execute(async (trx) => {
    const lab = await findVisibleLab(trx, actor, input.lab_id);
    if (!lab) throw notFound('lab');
    if (lab.uses_instances) {
      const legacy = LEGACY_ONLY_FIELDS.filter((f) => input[f] !== undefined && input[f] !== null);
      if (legacy.length > 0) throw usesInstancesError(legacy);
    } else if (input.instances && input.instances.length > 0) {
      throw validation([
        {
          field: 'instances',
          message: 'this lab does not use instances: give quantity, lot_number, expiration_date and location on the item',
        },
      ]);
    }
    await checkType(trx, lab.id, input.type_id);
    const item = await createItemIn(
      trx,
      deps,
      actor.userId,
      newItemOf(lab.id, input),
      (input.instances ?? []).map(
        (i): NewInstance => ({
          quantity: i.quantity,
          lotNumber: i.lot_number,
          expirationDate: i.expiration_date,
          locationId: i.location_id,
        }),
      ),
    );
    const row = (await repo.findItem(trx, item.id))!;
    return { item, etag: etagOf(row.version), json: row.rendered! };
  });
}

/** PATCH /inventory-items/{id}: the fields given change, the others stay; history per field. */
export async function editInventoryItem(
  deps: ServiceDeps,
  actor: Actor,
  id: string,
  input: ItemEdit,
  ifMatch?: string,
): Promise<ItemWithEtag> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockVisibleItem(trx, actor, id);
    if (!ifMatchSatisfied(ifMatch, row.version)) throw preconditionFailed();
    const lab = (await findLabRow(trx, row.lab_id))!;
    const migrated = lab.uses_instances === 1;
    if (migrated) {
      const legacy = LEGACY_ONLY_FIELDS.filter((f) => input[f] !== undefined);
      if (legacy.length > 0) throw usesInstancesError(legacy);
    }
    await checkType(trx, lab.id, input.type_id);
    const set: Partial<repo.ItemRow> = {};
    const changes: HistoryEntry[] = [];
    for (const field of ITEM_FIELD_KEYS) {
      if (input[field] === undefined) continue;
      const { column } = ITEM_FIELDS[field];
      const old = row[column];
      const value = columnValue(field, input[field]);
      if (old === value) continue;
      (set as Record<string, unknown>)[column] = value;
      changes.push({ field, old, new: value });
    }
    if (changes.length === 0) return asItIs(trx, deps, row);
    const now = nowIso();
    await repo.touchItem(trx, row.id, { userId: actor.userId, now, set });
    await recordHistory(trx, { itemId: row.id, userId: actor.userId, now }, changes);
    return finishItemChange(trx, deps, row.id);
  });
}

/** DELETE /inventory-items/{id}: the item, its instances and history; inventory-item.deleted carries its last state. */
export async function deleteInventoryItem(deps: ServiceDeps, actor: Actor, id: string, ifMatch?: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await lockVisibleItem(trx, actor, id);
    if (!ifMatchSatisfied(ifMatch, row.version)) throw preconditionFailed();
    await assertDeletable(trx, row.id);
    const last = await renderItem(trx, deps.config.appUrl, row);
    const lab = (await findLabRow(trx, row.lab_id))!;
    await retireItemCodes(trx, row.id);
    await repo.deleteItem(trx, row.id);
    await emitEvent(trx, deps.config, {
      type: 'inventory-item.deleted',
      organizationId: lab.organization_id,
      labId: lab.id,
      resource: last,
    });
  });
}
