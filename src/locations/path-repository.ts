import { assignCodes } from '../labels/repository.js';
import { flatMapChunks, forEachChunk } from '../shared/db/chunks.js';
import type { Executor } from '../shared/db/database.js';
import type { LocationsTable } from '../shared/db/schema.js';
import { newId } from '../shared/ids.js';

// Locations named by their path from the root ("Room 1 / Freezer A / Shelf 2"), as an inventory import gives them
// (src/inventory/csv/import.ts): each level is looked up among the children of the level above (sibling names are
// unique; the oldest wins should a tree stored by an older version hold duplicates) and created when missing.
// A path is resolved from a root, so its length is the depth of its last location; the caller keeps paths within
// MAX_LOCATION_DEPTH (src/locations/rules.ts) and holds the lab's lock (lockLab), as every tree change does.
// A few statements per level, whatever the number of paths.

const key = (parentId: string | null, name: string) => `${parentId ?? ''}\u0000${name}`;

export interface ResolvedPaths {
  /** Location id of each path, by the path's names joined with U+0000. */
  ids: Map<string, string>;
  /** Locations created (or, in a dry run, that would be). */
  created: number;
}

/** With `dryRun`, nothing is written: missing locations get ids that exist nowhere and are only counted. */
export async function resolveLocationPaths(
  ex: Executor,
  labId: string,
  paths: string[][],
  now: string,
  dryRun: boolean,
): Promise<ResolvedPaths> {
  const ids = new Map<string, string>();
  const unique = new Map(paths.filter((p) => p.length > 0).map((p) => [p.join('\u0000'), p]));
  const fake = new Set<string>();
  let created = 0;
  // The location id of each distinct prefix seen so far, by the prefix's names joined.
  const prefixIds = new Map<string, string>();
  const depth = Math.max(0, ...[...unique.values()].map((p) => p.length));
  for (let level = 0; level < depth; level++) {
    const wanted = new Map<string, { parentId: string | null; name: string; prefix: string }>();
    for (const p of unique.values()) {
      if (p.length <= level) continue;
      const prefix = p.slice(0, level + 1).join('\u0000');
      if (prefixIds.has(prefix)) continue;
      const parentId = level === 0 ? null : prefixIds.get(p.slice(0, level).join('\u0000'))!;
      wanted.set(key(parentId, p[level]!), { parentId, name: p[level]!, prefix });
    }
    const real = [...wanted.values()].filter((w) => w.parentId === null || !fake.has(w.parentId));
    const found = new Map<string, string>();
    const parentIds = [...new Set(real.map((w) => w.parentId).filter((x): x is string => x !== null))];
    const names = [...new Set(real.map((w) => w.name))];
    const rows = await flatMapChunks(names, (chunk) => {
      if (level === 0) return childrenNamed(ex, labId, null, chunk);
      return flatMapChunks(parentIds, (parents) => childrenNamed(ex, labId, parents, chunk));
    });
    for (const r of rows) if (!found.has(key(r.parent_id, r.name))) found.set(key(r.parent_id, r.name), r.id);
    const inserts: LocationsTable[] = [];
    for (const [k, w] of wanted) {
      let id = found.get(k);
      if (!id) {
        id = newId();
        created++;
        if (dryRun) fake.add(id);
        else inserts.push({ id, lab_id: labId, parent_id: w.parentId, name: w.name, created_at: now });
      }
      prefixIds.set(w.prefix, id);
    }
    await forEachChunk(inserts, (chunk) => ex.insertInto('locations').values(chunk).execute());
    await assignCodes(
      ex,
      'location',
      labId,
      inserts.map((r) => r.id),
    );
  }
  for (const [k, p] of unique) ids.set(k, prefixIds.get(p.join('\u0000'))!);
  return { ids, created };
}

function childrenNamed(ex: Executor, labId: string, parentIds: string[] | null, names: string[]) {
  let q = ex.selectFrom('locations').select(['id', 'parent_id', 'name']).where('lab_id', '=', labId).where('name', 'in', names);
  q = parentIds === null ? q.where('parent_id', 'is', null) : q.where('parent_id', 'in', parentIds);
  return q.orderBy('created_at').orderBy('id').execute();
}
