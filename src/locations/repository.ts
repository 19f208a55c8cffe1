import { sql } from 'kysely';
import type { Executor } from '../shared/db/database.js';
import type { LocationsTable } from '../shared/db/schema.js';
import { type Ancestry, type ChainStep, MAX_LOCATION_DEPTH, readAncestry } from './rules.js';

export interface LocationPath {
  name: string;
  pathNames: string[];
}

/**
 * The ancestor chains of many locations in one recursive query (the same SQL on SQLite and PostgreSQL), each
 * step with its distance from the location asked about. The walk stops one step past the deepest allowed path,
 * so a cycle or an over-deep path stored by an older version ends too (src/locations/rules.ts reads them).
 */
async function ancestorChains(ex: Executor, ids: Iterable<string | null>): Promise<Map<string, ChainStep[]>> {
  const unique = [...new Set([...ids].filter((x): x is string => x !== null))];
  const chains = new Map<string, ChainStep[]>();
  if (unique.length === 0) return chains;
  const { rows } = await sql<{ start_id: string; id: string; parent_id: string | null; name: string; depth: number }>`
    WITH RECURSIVE chain(start_id, id, parent_id, name, depth) AS (
      SELECT id, id, parent_id, name, 0 FROM locations WHERE id IN (${sql.join(unique)})
      UNION ALL
      SELECT chain.start_id, l.id, l.parent_id, l.name, chain.depth + 1
      FROM locations l JOIN chain ON l.id = chain.parent_id
      WHERE chain.depth < ${MAX_LOCATION_DEPTH + 1}
    )
    SELECT start_id, id, parent_id, name, depth FROM chain`.execute(ex);
  for (const r of rows) {
    const list = chains.get(r.start_id) ?? [];
    list.push({ id: r.id, parent_id: r.parent_id, name: r.name, depth: Number(r.depth) });
    chains.set(r.start_id, list);
  }
  return chains;
}

/** Root-to-leaf paths of many locations, each within the published limits whatever is stored. */
export async function locationPaths(ex: Executor, ids: Iterable<string | null>): Promise<Map<string, LocationPath>> {
  const out = new Map<string, LocationPath>();
  for (const [id, chain] of await ancestorChains(ex, ids)) {
    const { pathNames } = readAncestry(chain);
    out.set(id, { name: pathNames[pathNames.length - 1]!, pathNames });
  }
  return out;
}

/** Where a location stands: its path, its depth (1 for a root location) and whether its chain is whole. */
export async function ancestryOf(ex: Executor, id: string): Promise<Ancestry | undefined> {
  const chain = (await ancestorChains(ex, [id])).get(id);
  return chain ? readAncestry(chain) : undefined;
}

/** A location's own id and its ancestors', nearest first (the control areas a placement falls in). */
export async function ancestorIdsOf(ex: Executor, id: string): Promise<string[]> {
  return [...(await pathsUpFrom(ex, id)).keys()];
}

/**
 * A location and each of its ancestors, nearest first, with each one's path: from the one chain of the location
 * (an ancestor's path is the part of the chain from it up), so a placement learns which areas it falls in and
 * their names in one statement.
 */
export async function pathsUpFrom(ex: Executor, id: string): Promise<Map<string, LocationPath>> {
  const steps = [...((await ancestorChains(ex, [id])).get(id) ?? [])].sort((a, b) => a.depth - b.depth);
  const out = new Map<string, LocationPath>();
  for (const step of steps) {
    if (out.has(step.id)) continue;
    const { pathNames } = readAncestry(steps.filter((s) => s.depth >= step.depth).map((s) => ({ ...s, depth: s.depth - step.depth })));
    out.set(step.id, { name: pathNames[pathNames.length - 1]!, pathNames });
  }
  return out;
}

export const findLocation = (ex: Executor, id: string) => ex.selectFrom('locations').selectAll().where('id', '=', id).executeTakeFirst();

export function findSibling(ex: Executor, labId: string, parentId: string | null, name: string) {
  let q = ex.selectFrom('locations').select('id').where('lab_id', '=', labId).where('name', '=', name);
  q = parentId === null ? q.where('parent_id', 'is', null) : q.where('parent_id', '=', parentId);
  return q.executeTakeFirst();
}

export async function insertLocation(ex: Executor, row: LocationsTable): Promise<void> {
  await ex.insertInto('locations').values(row).execute();
}

/**
 * The location and everything below it, with each one's distance from it (0 for itself). A child is always of its
 * parent's lab: joining on both lets the walk use locations_parent_idx (lab_id, parent_id, …), where SQLite would
 * otherwise build a temporary index over every location on each call.
 */
export async function subtreeOf(ex: Executor, id: string): Promise<{ id: string; depth: number }[]> {
  const { rows } = await sql<{ id: string; depth: number }>`
    WITH RECURSIVE sub(id, lab_id, depth) AS (
      SELECT id, lab_id, 0 FROM locations WHERE id = ${id}
      UNION ALL
      SELECT l.id, l.lab_id, sub.depth + 1 FROM locations l JOIN sub ON l.lab_id = sub.lab_id AND l.parent_id = sub.id
      WHERE sub.depth < ${MAX_LOCATION_DEPTH + 1}
    )
    SELECT id, depth FROM sub`.execute(ex);
  return rows.map((r) => ({ id: r.id, depth: Number(r.depth) }));
}

export async function hasSubLocation(ex: Executor, id: string): Promise<boolean> {
  return (await ex.selectFrom('locations').select('id').where('parent_id', '=', id).executeTakeFirst()) !== undefined;
}

export const locationsOfLab = (ex: Executor, labId: string) =>
  ex.selectFrom('locations').selectAll().where('lab_id', '=', labId).orderBy('created_at').orderBy('id').execute();

export async function updateLocation(ex: Executor, id: string, set: { name?: string; parent_id?: string | null }): Promise<void> {
  await ex.updateTable('locations').set(set).where('id', '=', id).execute();
}

export async function deleteLocation(ex: Executor, id: string): Promise<void> {
  await ex.deleteFrom('locations').where('id', '=', id).execute();
}
