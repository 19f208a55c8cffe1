import { forgetControlArea } from '../hazards/control-area.js';
import { assignCodes, retireCodes } from '../labels/repository.js';
import { findVisibleLab, lockLab } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { type Db, type Executor, isUniqueViolation } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';
import * as repo from './repository.js';
import { fitsDepth, MAX_LOCATION_DEPTH, subtreeHeight } from './rules.js';
import type { UpdateLocationBody } from './schemas.js';

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

async function requireMigratedLab(ex: Executor, actor: Actor, labId: string) {
  const lab = await findVisibleLab(ex, actor, labId);
  if (!lab) throw notFound('lab');
  if (!lab.uses_instances)
    throw new AppError(
      'conflict',
      'Only labs that use instances have a location tree; legacy labs keep location and sublocation on the item',
    );
  return lab;
}

const nameTaken = (name: string) => new AppError('conflict', `a location named "${name}" already exists at that level`);

/** The unique index on siblings' names (src/shared/db/migrations/0006_location_integrity.ts) as the same 409. */
const siblingClash = (name: string) => (err: unknown) => {
  throw isUniqueViolation(err) ? nameTaken(name) : err;
};

/**
 * How deep a new child of `parentId` would start (0 = at the root). A parent whose own chain does not reach a root
 * within the limits (a cycle or an over-deep path stored by an older version) takes nothing new below it.
 */
async function depthBelow(ex: Executor, parentId: string | null): Promise<number> {
  if (parentId === null) return 0;
  const ancestry = await repo.ancestryOf(ex, parentId);
  if (ancestry?.cyclic)
    throw new AppError('conflict', 'the parent location is part of a cycle; move one of its locations to the root or elsewhere first');
  if (!ancestry || ancestry.depth === null)
    throw new AppError('conflict', `the parent location is more than ${MAX_LOCATION_DEPTH} levels deep`);
  return ancestry.depth;
}

/**
 * Adds a location under `parentId` (or at the root) of a lab's tree the actor sees.
 * Tree changes of one lab are serialized by its row lock (lockLab), so the depth and name checks see every change
 * committed before; the unique index on sibling names backs the name check.
 */
export async function createLocation(db: Db, actor: Actor, input: { labId: string; parentId: string | null; name: string }) {
  const name = checkName(input.name);
  return db.transaction().execute(async (trx) => {
    await requireMigratedLab(trx, actor, input.labId);
    await lockLab(trx, input.labId);
    if (input.parentId) {
      const parent = await repo.findLocation(trx, input.parentId);
      if (!parent || parent.lab_id !== input.labId) throw notFound('parent location');
    }
    const parentDepth = await depthBelow(trx, input.parentId);
    if (!fitsDepth(parentDepth, 1)) throw new AppError('conflict', `locations are at most ${MAX_LOCATION_DEPTH} levels deep`);
    if (await repo.findSibling(trx, input.labId, input.parentId, name)) throw nameTaken(name);
    const row = { id: newId(), lab_id: input.labId, parent_id: input.parentId, name, created_at: nowIso() };
    await repo.insertLocation(trx, row).catch(siblingClash(name));
    await assignCodes(trx, 'location', input.labId, [row.id]);
    return row;
  });
}

export async function listLocations(db: Db, actor: Actor, labId: string): Promise<LocationView[]> {
  const lab = await findVisibleLab(db, actor, labId);
  if (!lab) throw notFound('lab');
  const rows = await repo.locationsOfLab(db, labId);
  const paths = await repo.locationPaths(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ id: r.id, name: r.name, parent_id: r.parent_id, pathNames: paths.get(r.id)?.pathNames ?? [r.name] }));
}

/** The location when the actor sees its lab, else 404 (another tenant's id as much as a missing one). */
export async function visibleLocation(ex: Executor, actor: Actor, id: string) {
  const row = await repo.findVisibleLocation(ex, actor, id);
  if (!row) throw notFound('location');
  return row;
}

/**
 * What is stored at locations, answered by the folder that stores things there (src/inventory/stored-at.ts), so
 * that this folder never reads or writes another folder's tables (docs/decisions/0006-domain-order.md).
 */
export interface StoredAtLocations {
  /** Whether anything active is stored at the location: a delete is refused while it is. */
  inUse(trx: Executor, locationId: string): Promise<boolean>;
  /** Just before the location is deleted: whatever no longer active still names it lets go of it. */
  release(trx: Executor, locationId: string): Promise<void>;
  /** After a rename or move, in its transaction: the paths of these locations (the moved subtree) changed. */
  moved(
    trx: Executor,
    deps: ServiceDeps,
    actor: Actor,
    locationIds: string[],
    lab: { organizationId: string; labId: string },
  ): Promise<void>;
}

/**
 * Renames and/or moves a location. A move may not put a location under itself or its descendants, and the moved
 * subtree must still fit in seven levels; sibling names stay unique. Serialized per lab like createLocation, so two
 * moves that each fit alone (or that cross, A under C while C goes under A) cannot both pass their checks. A move
 * that takes a location out of a cycle stored by an older version is judged by the tree it makes, so it repairs it.
 */
export async function updateLocation(
  deps: ServiceDeps,
  stored: StoredAtLocations,
  actor: Actor,
  id: string,
  input: UpdateLocationBody,
): Promise<LocationView> {
  return deps.db.transaction().execute(async (trx) => {
    const seen = await visibleLocation(trx, actor, id);
    await lockLab(trx, seen.lab_id);
    // Read again under the lock: a change committed while this one waited is what the checks must see.
    const row = (await repo.findLocation(trx, id)) ?? notFoundLocation();
    const name = input.name === undefined ? row.name : checkName(input.name);
    const parentId = input.parent_id === undefined ? row.parent_id : input.parent_id;
    if (name === row.name && parentId === row.parent_id) return (await listOne(trx, row.id))!;
    const subtree = await repo.subtreeOf(trx, row.id);
    if (parentId !== row.parent_id) {
      if (parentId !== null) {
        const parent = await repo.findLocation(trx, parentId);
        if (!parent || parent.lab_id !== row.lab_id) throw notFound('parent location');
        if (subtree.some((s) => s.id === parentId))
          throw new AppError('conflict', 'a location cannot move under itself or one of its own sub-locations');
      }
      const parentDepth = await depthBelow(trx, parentId);
      const height = subtreeHeight(subtree);
      if (!fitsDepth(parentDepth, height)) {
        throw new AppError(
          'conflict',
          `the move would make the tree ${parentDepth + height} levels deep; at most ${MAX_LOCATION_DEPTH} are allowed`,
        );
      }
    }
    const sibling = await repo.findSibling(trx, row.lab_id, parentId, name);
    if (sibling && sibling.id !== row.id) throw nameTaken(name);
    await repo.updateLocation(trx, row.id, { name, parent_id: parentId }).catch(siblingClash(name));
    const lab = (await findVisibleLab(trx, actor, row.lab_id))!;
    await stored.moved(trx, deps, actor, [...new Set(subtree.map((s) => s.id))], { organizationId: lab.organization.id, labId: lab.id });
    return (await listOne(trx, row.id))!;
  });
}

const notFoundLocation = (): never => {
  throw notFound('location');
};

async function listOne(ex: Executor, id: string): Promise<LocationView | undefined> {
  const row = await repo.findLocation(ex, id);
  if (!row) return undefined;
  const path = (await repo.locationPaths(ex, [id])).get(id);
  return { id: row.id, name: row.name, parent_id: row.parent_id, pathNames: path?.pathNames ?? [row.name] };
}

/** Deletes an empty location: 409 while it has sub-locations or active instances. Serialized per lab like a move. */
export async function deleteLocation(deps: ServiceDeps, stored: StoredAtLocations, actor: Actor, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const seen = await visibleLocation(trx, actor, id);
    await lockLab(trx, seen.lab_id);
    const row = (await repo.findLocation(trx, id)) ?? notFoundLocation();
    if (await repo.hasSubLocation(trx, row.id)) throw new AppError('conflict', 'the location has sub-locations; move or delete them first');
    if (await stored.inUse(trx, row.id)) throw new AppError('conflict', 'instances are stored at this location; move them first');
    await stored.release(trx, row.id);
    await retireCodes(trx, 'location', [row.id]);
    await forgetControlArea(trx, row.id);
    await repo.deleteLocation(trx, row.id);
  });
}
