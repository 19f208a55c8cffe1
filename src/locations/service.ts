import { sql } from 'kysely';
import { emitEvents } from '../events/outbox.js';
import { renderItems } from '../inventory/render.js';
import { findVisibleLab, labsByIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Db, Executor } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';
import * as repo from './repository.js';
import { fitsDepth, MAX_LOCATION_DEPTH } from './rules.js';

export interface LocationView {
  id: string;
  name: string;
  parent_id: string | null;
  pathNames: string[];
}

const checkName = (raw: string): string => {
  const name = raw.trim();
  if (!name || name.length > 200) throw fieldError('name', 'must be 1 to 200 characters');
  return name;
};

async function requireMigratedLab(ex: Executor, actor: Actor | null, labId: string) {
  // Without an actor (seeding) there is no visibility to check, but the lab's rules still apply.
  const lab = actor ? await findVisibleLab(ex, actor, labId) : (await labsByIds(ex, [labId])).get(labId);
  if (!lab) throw notFound('lab');
  if (!lab.uses_instances) throw new AppError('conflict', 'Only labs that use instances have a location tree; legacy labs keep location and sublocation on the item');
  return lab;
}

/** Adds a location under `parentId` (or at the root) of a lab's tree. Without an actor (seeding), no visibility check. */
export async function createLocation(db: Db, input: { labId: string; parentId: string | null; name: string }, actor: Actor | null = null) {
  const name = checkName(input.name);
  return db.transaction().execute(async (trx) => {
    await requireMigratedLab(trx, actor, input.labId);
    let parentDepth = 0;
    if (input.parentId) {
      const parent = await repo.findLocation(trx, input.parentId);
      if (!parent || parent.lab_id !== input.labId) throw notFound('parent location');
      parentDepth = await repo.depthOf(trx, parent.id);
    }
    if (!fitsDepth(parentDepth, 1)) throw new AppError('conflict', `locations are at most ${MAX_LOCATION_DEPTH} levels deep`);
    if (await repo.findSibling(trx, input.labId, input.parentId, name)) {
      throw new AppError('conflict', `a location named "${name}" already exists at that level`);
    }
    const row = { id: newId(), lab_id: input.labId, parent_id: input.parentId, name, created_at: nowIso() };
    await repo.insertLocation(trx, row);
    return row;
  });
}

export async function listLocations(db: Db, actor: Actor, labId: string): Promise<LocationView[]> {
  const lab = await findVisibleLab(db, actor, labId);
  if (!lab) throw notFound('lab');
  const rows = await repo.locationsOfLab(db, labId);
  const paths = await repo.locationPaths(db, rows.map((r) => r.id));
  return rows.map((r) => ({ id: r.id, name: r.name, parent_id: r.parent_id, pathNames: paths.get(r.id)?.pathNames ?? [r.name] }));
}

async function findVisibleLocation(ex: Executor, actor: Actor, id: string) {
  const row = await repo.findLocation(ex, id);
  if (!row || !(await findVisibleLab(ex, actor, row.lab_id))) throw notFound('location');
  return row;
}

/** Items with active instances in these locations: their instances' pathNames changed, so they changed. */
async function announceMovedItems(trx: Executor, deps: ServiceDeps, actor: Actor, locationIds: string[], organizationId: string, labId: string): Promise<void> {
  if (locationIds.length === 0) return;
  const itemIds = (await trx.selectFrom('inventory_item_instances').select('item_id').distinct()
    .where('location_id', 'in', locationIds).where('archived_at', 'is', null).execute()).map((r) => r.item_id);
  if (itemIds.length === 0) return;
  const now = nowIso();
  await trx.updateTable('inventory_items').set({ version: sql<number>`version + 1`, updated_by: actor.userId, updated_at: now }).where('id', 'in', itemIds).execute();
  const rows = await trx.selectFrom('inventory_items').selectAll().where('id', 'in', itemIds).orderBy('created_at').orderBy('id').execute();
  const items = await renderItems(trx, deps.config.appUrl, rows);
  await emitEvents(trx, deps.config, items.map((item) => ({ type: 'inventory-item.updated' as const, organizationId, labId, resource: item })));
}

/**
 * Renames and/or moves a location. A move may not put a location under itself or its descendants, and the moved
 * subtree must still fit in seven levels; sibling names stay unique.
 */
export async function updateLocation(deps: ServiceDeps, actor: Actor, id: string, input: { name?: string; parent_id?: string | null }): Promise<LocationView> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await findVisibleLocation(trx, actor, id);
    const name = input.name === undefined ? row.name : checkName(input.name);
    const parentId = input.parent_id === undefined ? row.parent_id : input.parent_id;
    if (name === row.name && parentId === row.parent_id) return (await listOne(trx, row.id))!;
    const subtree = await repo.subtreeOf(trx, row.id);
    if (parentId !== row.parent_id) {
      if (parentId !== null) {
        const parent = await repo.findLocation(trx, parentId);
        if (!parent || parent.lab_id !== row.lab_id) throw notFound('parent location');
        if (subtree.some((s) => s.id === parentId)) throw new AppError('conflict', 'a location cannot move under itself or one of its own sub-locations');
      }
      const parentDepth = parentId === null ? 0 : await repo.depthOf(trx, parentId);
      const height = Math.max(...subtree.map((s) => s.depth)) + 1;
      if (!fitsDepth(parentDepth, height)) {
        throw new AppError('conflict', `the move would make the tree ${parentDepth + height} levels deep; at most ${MAX_LOCATION_DEPTH} are allowed`);
      }
    }
    const sibling = await repo.findSibling(trx, row.lab_id, parentId, name);
    if (sibling && sibling.id !== row.id) throw new AppError('conflict', `a location named "${name}" already exists at that level`);
    await repo.updateLocation(trx, row.id, { name, parent_id: parentId });
    const lab = (await findVisibleLab(trx, actor, row.lab_id))!;
    await announceMovedItems(trx, deps, actor, subtree.map((s) => s.id), lab.organization.id, lab.id);
    return (await listOne(trx, row.id))!;
  });
}

async function listOne(ex: Executor, id: string): Promise<LocationView | undefined> {
  const row = await repo.findLocation(ex, id);
  if (!row) return undefined;
  const path = (await repo.locationPaths(ex, [id])).get(id);
  return { id: row.id, name: row.name, parent_id: row.parent_id, pathNames: path?.pathNames ?? [row.name] };
}

/** Deletes an empty location: 409 while it has sub-locations or active instances. */
export async function deleteLocation(deps: ServiceDeps, actor: Actor, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await findVisibleLocation(trx, actor, id);
    const child = await trx.selectFrom('locations').select('id').where('parent_id', '=', row.id).executeTakeFirst();
    if (child) throw new AppError('conflict', 'the location has sub-locations; move or delete them first');
    const used = await trx.selectFrom('inventory_item_instances').select('id').where('location_id', '=', row.id).where('archived_at', 'is', null).executeTakeFirst();
    if (used) throw new AppError('conflict', 'instances are stored at this location; move them first');
    // Archived instances keep no location rather than a dangling one.
    await trx.updateTable('inventory_item_instances').set({ location_id: null }).where('location_id', '=', row.id).execute();
    await repo.deleteLocation(trx, row.id);
  });
}
