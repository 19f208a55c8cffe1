import { type RawBuilder, sql } from 'kysely';
import type { AreaRow } from '../hazards/control-area-repository.js';
import { holdingsStampColumns } from '../hazards/holdings-reads-repository.js';
import { labIsVisible } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
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
async function ancestorChains(ex: Executor, ids: Iterable<string | null>, withAreas = false): Promise<Map<string, Step[]>> {
  const unique = [...new Set([...ids].filter((x): x is string => x !== null))];
  const chains = new Map<string, Step[]>();
  if (unique.length === 0) return chains;
  // With the control area marked at each step, if any (a placement's first read: src/inventory/placement.ts).
  const select = withAreas
    ? sql`SELECT c.start_id, c.id, c.parent_id, c.name, c.depth, a.location_id AS area_id, a.sprinklered, a.cabinets, a.limits
        FROM chain c LEFT JOIN control_areas a ON a.location_id = c.id`
    : sql`SELECT start_id, id, parent_id, name, depth FROM chain`;
  const { rows } = await sql<
    { start_id: string; id: string; parent_id: string | null; name: string; depth: number } & Partial<AreaColumns>
  >`
    WITH RECURSIVE chain(start_id, id, parent_id, name, depth) AS (
      SELECT id, id, parent_id, name, 0 FROM locations WHERE id IN (${sql.join(unique)})
      UNION ALL
      SELECT chain.start_id, l.id, l.parent_id, l.name, chain.depth + 1
      FROM locations l JOIN chain ON l.id = chain.parent_id
      WHERE chain.depth < ${MAX_LOCATION_DEPTH + 1}
    )
    ${select}`.execute(ex);
  for (const r of rows) {
    const list = chains.get(r.start_id) ?? [];
    const step: Step = { id: r.id, parent_id: r.parent_id, name: r.name, depth: Number(r.depth) };
    if (withAreas)
      step.area = r.area_id
        ? { location_id: r.area_id, sprinklered: Number(r.sprinklered), cabinets: Number(r.cabinets), limits: r.limits! }
        : null;
    list.push(step);
    chains.set(r.start_id, list);
  }
  return chains;
}

/** A step of a chain; with `withAreas`, the control area marked there (null: none). */
type Step = ChainStep & { area?: AreaRow | null };

type AreaColumns = { area_id: string | null; sprinklered: number | null; cabinets: number | null; limits: string | null };

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
  return pathsOfChain((await ancestorChains(ex, [id])).get(id) ?? []);
}

function pathsOfChain(chain: readonly ChainStep[]): Map<string, LocationPath> {
  const steps = [...chain].sort((a, b) => a.depth - b.depth);
  const out = new Map<string, LocationPath>();
  for (const step of steps) {
    if (out.has(step.id)) continue;
    const { pathNames } = readAncestry(steps.filter((s) => s.depth >= step.depth).map((s) => ({ ...s, depth: s.depth - step.depth })));
    out.set(step.id, { name: pathNames[pathNames.length - 1]!, pathNames });
  }
  return out;
}

/**
 * pathsUpFrom, and the rows of the control areas marked among the location and its ancestors (by location id), in
 * one statement: a placement check's first read, where the areas read after the path cost a round trip more.
 */
export async function pathsUpWithAreas(ex: Executor, id: string): Promise<{ paths: Map<string, LocationPath>; areas: AreaRow[] }> {
  const chain = (await ancestorChains(ex, [id], true)).get(id) ?? [];
  const areas = new Map<string, AreaRow>();
  for (const step of chain) if (step.area) areas.set(step.area.location_id, step.area);
  return { paths: pathsOfChain(chain), areas: [...areas.values()].sort((a, b) => (a.location_id < b.location_id ? -1 : 1)) };
}

// Columns by name rather than `*`: a statement naming them is prepared on PostgreSQL (src/shared/db/prepared-names.ts).
const locationColumns = ['locations.id', 'locations.lab_id', 'locations.parent_id', 'locations.name', 'locations.created_at'] as const;

export const findLocation = (ex: Executor, id: string) =>
  ex.selectFrom('locations').select(locationColumns).where('locations.id', '=', id).executeTakeFirst();

/** The location when its lab is one the actor sees (one statement; another tenant's location is not found). */
export const findVisibleLocation = (ex: Executor, actor: Actor, id: string) =>
  ex
    .selectFrom('locations')
    .select(locationColumns)
    .where('locations.id', '=', id)
    .where((eb) => eb.exists(labIsVisible(ex, actor, 'locations.lab_id')))
    .executeTakeFirst();

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
  const { rows } = await sql<{ id: string; depth: number }>`WITH RECURSIVE ${subtree(ex, only(id))} SELECT id, depth FROM sub`.execute(ex);
  return rows.map((r) => ({ id: r.id, depth: Number(r.depth) }));
}

// PostgreSQL joined each level of the walk by hashing every location of the database (a thousand locations: 0.8
// of the 0.9 ms the walk took); the children read per location through the index take 0.1 ms. OFFSET 0 keeps the
// planner from folding the LATERAL back into that join. SQLite, which has no LATERAL, walks the index already.
// `sub` has each location's root too (the walk may start from several: pathsUpWithAreas' areas).
const subtree = (ex: Executor, anchor: RawBuilder<unknown>) => {
  const children = isPostgres(ex)
    ? sql`sub CROSS JOIN LATERAL (
      SELECT l.id, l.lab_id FROM locations l WHERE l.lab_id = sub.lab_id AND l.parent_id = sub.id OFFSET 0
    ) c`
    : sql`locations c JOIN sub ON c.lab_id = sub.lab_id AND c.parent_id = sub.id`;
  return sql`
  sub(root, id, lab_id, depth) AS (
    ${anchor}
    UNION ALL
    SELECT sub.root, c.id, c.lab_id, sub.depth + 1 FROM ${children}
    WHERE sub.depth < ${MAX_LOCATION_DEPTH + 1}
  )`;
};
const only = (id: string) => sql`SELECT id, id, lab_id, 0 FROM locations WHERE id = ${id}`;

/**
 * A control area's locations (the location and everything below it) and, per location, whether its running totals
 * changed (src/hazards/holdings-reads-repository.ts holdingsStampColumns), in one statement: the meter's and each limit
 * check's first read of an area.
 */
export async function subtreeStamped(ex: Executor, id: string): Promise<{ ids: string[]; stamps: Map<string, string> }> {
  const { rows } = await sql<{ id: string; n: number | string; v: number | string }>`
    WITH RECURSIVE ${subtree(ex, only(id))}
    SELECT sub.id, ${holdingsStampColumns(sql.ref('sub.id'))} FROM sub`.execute(ex);
  const stamps = new Map(rows.map((r) => [r.id, stampOf(r)]));
  return { ids: [...stamps.keys()], stamps };
}

export type StampedSubtree = Awaited<ReturnType<typeof subtreeStamped>>;

/** A location's (rows, sum of versions) pair as one string (src/hazards/holdings-reads-repository.ts holdingsStampColumns). */
const stampOf = (r: { n: number | string; v: number | string }) => `${Number(r.n)}:${Number(r.v)}`;

/**
 * subtreeStamped of each control area at `id` (`at`) or among `id` and its ancestors (`above`), by area, in one
 * statement whatever their number: read beside the areas' rows, not after them (the meter and the preflight; a
 * writer reads them after locking the areas). An area marked in between is simply not in the answer.
 */
export async function stampedAreaSubtrees(ex: Executor, id: string, among: 'at' | 'above'): Promise<Map<string, StampedSubtree>> {
  // The walk down starts from the chain's own rows (with their lab), not from a lookup of them in locations:
  // PostgreSQL hashed every location for that (0.24 of the statement's 0.73 ms on the bench's 1,111).
  const chain = sql`chain(id, parent_id, lab_id, depth) AS (
      SELECT id, parent_id, lab_id, 0 FROM locations WHERE id = ${id}
      UNION ALL
      SELECT l.id, l.parent_id, l.lab_id, chain.depth + 1 FROM locations l JOIN chain ON l.id = chain.parent_id
      WHERE chain.depth < ${MAX_LOCATION_DEPTH + 1}
    ),`;
  const anchor =
    among === 'at'
      ? sql`SELECT id, id, lab_id, 0 FROM locations WHERE id = ${id} AND EXISTS (SELECT 1 FROM control_areas a WHERE a.location_id = locations.id)`
      : sql`SELECT c.id, c.id, c.lab_id, 0 FROM chain c WHERE EXISTS (SELECT 1 FROM control_areas a WHERE a.location_id = c.id)`;
  const { rows } = await sql<{ root: string; id: string; n: number | string; v: number | string }>`
    WITH RECURSIVE ${among === 'above' ? chain : sql``} ${subtree(ex, anchor)}
    SELECT sub.root, sub.id, ${holdingsStampColumns(sql.ref('sub.id'))} FROM sub`.execute(ex);
  const out = new Map<string, StampedSubtree>();
  for (const r of rows) {
    let t = out.get(r.root);
    if (!t) {
      t = { ids: [], stamps: new Map() };
      out.set(r.root, t);
    }
    t.stamps.set(r.id, stampOf(r));
  }
  for (const t of out.values()) t.ids = [...t.stamps.keys()];
  return out;
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
