import { sql } from 'kysely';
import { holdingsAdded } from '../hazards/holdings-repository.js';
import type { InstanceRow, ItemRow } from '../inventory/repository.js';
import { assignCodes } from '../labels/repository.js';
import { flatMapChunks, forEachChunk } from '../shared/db/chunks.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import type { LocationsTable } from '../shared/db/schema.js';
import { newId } from '../shared/ids.js';
import { CONVERTED, pathKey } from './rules.js';

// The lab migration's queries: the items it reads in cursor order, the locations and instances it creates, the legacy
// fields it clears (src/lab-migration/service.ts runs them inside each batch's transaction). The lab row's migration
// columns are written by src/labs/repository.ts (updateLabMigration): the labs folder owns that table.

export async function countItems(ex: Executor, labId: string): Promise<number> {
  const r = await ex
    .selectFrom('inventory_items')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('lab_id', '=', labId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Items of the lab whose row still holds legacy values (the SQL twin of isConverted). */
export async function countUnconverted(ex: Executor, labId: string): Promise<number> {
  const r = await ex
    .selectFrom('inventory_items')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('lab_id', '=', labId)
    .where((eb) =>
      eb.or([
        eb('quantity', '<>', CONVERTED.quantity),
        eb('lot_number', 'is not', null),
        eb('expiration_date', 'is not', null),
        eb('location_name', 'is not', null),
        eb('sublocation_name', 'is not', null),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The next `limit` items after the cursor in (created_at, id) order, locked for the batch (PostgreSQL). */
export function itemsAfter(
  ex: Executor,
  labId: string,
  cursor: { createdAt: string; id: string } | null,
  limit: number,
): Promise<ItemRow[]> {
  let q = ex.selectFrom('inventory_items').selectAll().where('lab_id', '=', labId);
  if (cursor) {
    q = q.where((eb) =>
      eb.or([eb('created_at', '>', cursor.createdAt), eb.and([eb('created_at', '=', cursor.createdAt), eb('id', '>', cursor.id)])]),
    );
  }
  q = q.orderBy('created_at').orderBy('id').limit(limit);
  // Locked, so a writer that got in before the migration started finishes first and the batch converts its result.
  if (isPostgres(ex)) q = q.forUpdate();
  return q.execute();
}

/**
 * The location ids of these paths (one or two levels) in the lab's tree: an existing location of that name at
 * that level is reused (sibling names are unique; the oldest wins should a tree hold duplicates), a missing one is
 * created. A few queries per batch, whatever the number of items.
 */
export async function ensureLocationPaths(ex: Executor, labId: string, paths: string[][], now: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (paths.length === 0) return out;
  const rootNames = [...new Set(paths.map((p) => p[0]!))];
  const roots = new Map<string, string>();
  const foundRoots = await flatMapChunks(rootNames, (chunk) =>
    ex
      .selectFrom('locations')
      .select(['id', 'name'])
      .where('lab_id', '=', labId)
      .where('parent_id', 'is', null)
      .where('name', 'in', chunk)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  );
  for (const r of foundRoots) if (!roots.has(r.name)) roots.set(r.name, r.id);
  const newRoots: LocationsTable[] = rootNames
    .filter((n) => !roots.has(n))
    .map((name) => ({ id: newId(), lab_id: labId, parent_id: null, name, created_at: now }));
  await insertLocations(ex, newRoots);
  for (const r of newRoots) roots.set(r.name, r.id);

  const childKey = (parentId: string, name: string) => `${parentId}\u0000${name}`;
  const wanted = new Map<string, { parentId: string; name: string }>();
  for (const p of paths) if (p.length === 2) wanted.set(childKey(roots.get(p[0]!)!, p[1]!), { parentId: roots.get(p[0]!)!, name: p[1]! });
  const children = new Map<string, string>();
  const parentIds = [...new Set([...wanted.values()].map((w) => w.parentId))];
  const childNames = [...new Set([...wanted.values()].map((w) => w.name))];
  await forEachChunk(parentIds, (parents) =>
    forEachChunk(childNames, async (names) => {
      const found = await ex
        .selectFrom('locations')
        .select(['id', 'parent_id', 'name'])
        .where('lab_id', '=', labId)
        .where('parent_id', 'in', parents)
        .where('name', 'in', names)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      for (const r of found) {
        const key = childKey(r.parent_id!, r.name);
        if (!children.has(key)) children.set(key, r.id);
      }
    }),
  );
  const newChildren: LocationsTable[] = [...wanted]
    .filter(([key]) => !children.has(key))
    .map(([, w]) => ({ id: newId(), lab_id: labId, parent_id: w.parentId, name: w.name, created_at: now }));
  await insertLocations(ex, newChildren);
  for (const c of newChildren) children.set(childKey(c.parent_id!, c.name), c.id);

  for (const p of paths) {
    const rootId = roots.get(p[0]!)!;
    out.set(pathKey(p), p.length === 1 ? rootId : children.get(childKey(rootId, p[1]!))!);
  }
  return out;
}

export async function insertLocations(ex: Executor, rows: LocationsTable[]): Promise<void> {
  await forEachChunk(rows, (chunk) => ex.insertInto('locations').values(chunk).execute());
  if (rows[0])
    await assignCodes(
      ex,
      'location',
      rows[0].lab_id,
      rows.map((r) => r.id),
    );
}

export async function insertInstances(ex: Executor, rows: InstanceRow[]): Promise<void> {
  // What they hold is added to their locations' holdings (src/hazards/holdings-repository.ts).
  await forEachChunk(rows, (chunk) => ex.insertInto('inventory_item_instances').values(chunk).execute());
  await holdingsAdded(ex, { instanceIds: rows.map((r) => r.id) });
}

/** Gives converted items the migrated shape and a new version (ETag); who changed them last stays as it was. */
export async function clearLegacyFields(ex: Executor, ids: string[], now: string): Promise<void> {
  await forEachChunk(ids, (chunk) =>
    ex
      .updateTable('inventory_items')
      .set({ ...CONVERTED, updated_at: now, version: sql<number>`version + 1` })
      .where('id', 'in', chunk)
      .execute(),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Checks used by the inventory's write paths.
