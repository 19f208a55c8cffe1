import { labIsVisible } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { flatMapChunks, forEachChunk } from '../shared/db/chunks.js';
import type { Executor } from '../shared/db/database.js';
import type { LabelCodesTable, LabelKind } from '../shared/db/schema.js';
import { nowIso } from '../shared/time.js';
import { newCode } from './rules.js';

// src/labels/ owns label_codes (migration 0031). The creators of instances, locations and legacy items call
// assignCodes inside their own transaction; the rest reads, for the code routes and the label sheets, the rows of
// inventory and locations it prints (read only: those folders own them).

type Viewer = Pick<Actor, 'organizationId' | 'userId' | 'role'>;

/**
 * Gives each target a fresh code, in the caller's transaction. A drawn code that is already taken (50 random bits:
 * rare, never impossible) is skipped by the insert and drawn again for its target, so creation never fails on it.
 */
export async function assignCodes(ex: Executor, kind: LabelKind, labId: string, targetIds: readonly string[]): Promise<void> {
  if (targetIds.length === 0) return;
  const lab = await ex.selectFrom('labs').select('organization_id').where('id', '=', labId).executeTakeFirstOrThrow();
  const now = nowIso();
  let pending = [...targetIds];
  for (let round = 0; pending.length > 0; round++) {
    if (round === 8) throw new Error('could not draw unused label codes');
    const done = new Set<string>();
    const rows: LabelCodesTable[] = pending.map((id) => ({
      code: newCode(),
      organization_id: lab.organization_id,
      kind,
      target_id: id,
      lab_id: labId,
      created_at: now,
      retired_at: null,
    }));
    await forEachChunk(rows, async (chunk) => {
      const inserted = await ex
        .insertInto('label_codes')
        .values(chunk)
        .onConflict((oc) => oc.doNothing())
        .returning('target_id')
        .execute();
      for (const r of inserted) done.add(r.target_id);
    });
    pending = pending.filter((id) => !done.has(id));
  }
}

/** Marks the codes of deleted targets; the rows stay so a code is never handed out again. */
export async function retireCodes(ex: Executor, kind: LabelKind, targetIds: readonly string[]): Promise<void> {
  const now = nowIso();
  await forEachChunk(targetIds, (chunk) =>
    ex
      .updateTable('label_codes')
      .set({ retired_at: now })
      .where('kind', '=', kind)
      .where('target_id', 'in', chunk)
      .where('retired_at', 'is', null)
      .execute(),
  );
}

/** Retires an item's own code and its instances' codes; call before the instances are deleted. */
export async function retireItemCodes(ex: Executor, itemId: string): Promise<void> {
  const instances = await ex.selectFrom('inventory_item_instances').select('id').where('item_id', '=', itemId).execute();
  await retireCodes(ex, 'item', [itemId]);
  await retireCodes(
    ex,
    'instance',
    instances.map((i) => i.id),
  );
}

/** A code's row when its lab is one the viewer sees; another organization's code, or a hidden lab's, is none. */
export const findVisibleCode = (ex: Executor, viewer: Viewer, code: string) =>
  ex
    .selectFrom('label_codes')
    .selectAll()
    .where('code', '=', code)
    .where('organization_id', '=', viewer.organizationId)
    .where((eb) => eb.exists(labIsVisible(ex, viewer, 'label_codes.lab_id')))
    .executeTakeFirst();

/** The codes of these targets that the viewer sees. */
export function visibleCodesOf(ex: Executor, viewer: Viewer, kind: LabelKind, targetIds: readonly string[]) {
  return flatMapChunks(targetIds, (chunk) =>
    ex
      .selectFrom('label_codes')
      .selectAll()
      .where('kind', '=', kind)
      .where('target_id', 'in', chunk)
      .where('organization_id', '=', viewer.organizationId)
      .where((eb) => eb.exists(labIsVisible(ex, viewer, 'label_codes.lab_id')))
      .execute(),
  );
}

export interface InstanceFacts {
  id: string;
  item_id: string;
  lab_id: string;
  name: string;
  lot_number: string | null;
  expiration_date: string | null;
  location_id: string | null;
  archived_at: string | null;
}

export const instanceFacts = (ex: Executor, ids: readonly string[]): Promise<InstanceFacts[]> =>
  flatMapChunks(ids, (chunk) =>
    ex
      .selectFrom('inventory_item_instances as i')
      .innerJoin('inventory_items as it', 'it.id', 'i.item_id')
      .select(['i.id', 'i.item_id', 'it.lab_id', 'it.name', 'i.lot_number', 'i.expiration_date', 'i.location_id', 'i.archived_at'])
      .where('i.id', 'in', chunk)
      .execute(),
  );

export interface ItemFacts {
  id: string;
  lab_id: string;
  name: string;
  lot_number: string | null;
  expiration_date: string | null;
  location_name: string | null;
  sublocation_name: string | null;
}

export const itemFacts = (ex: Executor, ids: readonly string[]): Promise<ItemFacts[]> =>
  flatMapChunks(ids, (chunk) =>
    ex
      .selectFrom('inventory_items')
      .select(['id', 'lab_id', 'name', 'lot_number', 'expiration_date', 'location_name', 'sublocation_name'])
      .where('id', 'in', chunk)
      .execute(),
  );

/** The items among `ids` the viewer sees, with whether their lab uses instances. */
export const visibleItems = (ex: Executor, viewer: Viewer, ids: readonly string[]) =>
  flatMapChunks(ids, (chunk) =>
    ex
      .selectFrom('inventory_items as it')
      .innerJoin('labs', 'labs.id', 'it.lab_id')
      .select(['it.id', 'it.lab_id', 'labs.uses_instances'])
      .where('it.id', 'in', chunk)
      .where('labs.organization_id', '=', viewer.organizationId)
      .where((eb) => eb.exists(labIsVisible(ex, viewer, 'it.lab_id')))
      .execute(),
  );

/** The instances still on the shelf (not archived) of these items, oldest first. */
export const activeInstanceIdsOfItems = async (ex: Executor, itemIds: readonly string[]): Promise<string[]> =>
  (
    await flatMapChunks(itemIds, (chunk) =>
      ex
        .selectFrom('inventory_item_instances')
        .select(['id', 'item_id', 'created_at'])
        .where('item_id', 'in', chunk)
        .where('archived_at', 'is', null)
        .execute(),
    )
  )
    .sort((a, b) => a.item_id.localeCompare(b.item_id) || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
    .map((r) => r.id);

/** The instances on the shelf stored at any of these locations. */
export const activeInstanceIdsAt = async (ex: Executor, locationIds: readonly string[]): Promise<string[]> =>
  (
    await flatMapChunks(locationIds, (chunk) =>
      ex.selectFrom('inventory_item_instances').select('id').where('location_id', 'in', chunk).where('archived_at', 'is', null).execute(),
    )
  ).map((r) => r.id);

/** The instances on the shelf that arrived at or after `since`, in the labs the viewer sees (one lab, if given). */
export function activeInstanceIdsSince(ex: Executor, viewer: Viewer, since: string, labId: string | null, limit: number) {
  let q = ex
    .selectFrom('inventory_item_instances as i')
    .innerJoin('inventory_items as it', 'it.id', 'i.item_id')
    .innerJoin('labs', 'labs.id', 'it.lab_id')
    .select('i.id')
    .where('i.created_at', '>=', since)
    .where('i.archived_at', 'is', null)
    .where('labs.organization_id', '=', viewer.organizationId)
    .where((eb) => eb.exists(labIsVisible(ex, viewer, 'it.lab_id')));
  if (labId) q = q.where('it.lab_id', '=', labId);
  return q.orderBy('i.created_at').orderBy('i.id').limit(limit).execute();
}

/** Every location of these labs (id, parent, name), for paths and subtrees. */
export const locationsOfLabs = (ex: Executor, labIds: readonly string[]) =>
  flatMapChunks(labIds, (chunk) =>
    ex.selectFrom('locations').select(['id', 'lab_id', 'parent_id', 'name']).where('lab_id', 'in', chunk).execute(),
  );

/** The names of these labs. */
export const labNames = async (ex: Executor, labIds: readonly string[]): Promise<Map<string, string>> =>
  new Map(
    (await flatMapChunks(labIds, (chunk) => ex.selectFrom('labs').select(['id', 'name']).where('id', 'in', chunk).execute())).map((r) => [
      r.id,
      r.name,
    ]),
  );

/** The type of each item among `ids` (the hazards a label prints come from the item's own statements or its type's). */
export const itemTypes = (ex: Executor, ids: readonly string[]): Promise<{ id: string; type_id: string | null }[]> =>
  flatMapChunks(ids, (chunk) => ex.selectFrom('inventory_items').select(['id', 'type_id']).where('id', 'in', chunk).execute());
