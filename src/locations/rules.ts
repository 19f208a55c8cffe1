/** A migrated lab's location tree is at most this deep (contract, Limits). */
export const MAX_LOCATION_DEPTH = 7;

/**
 * Whether a subtree whose own height is `subtreeHeight` (1 for a single location) may hang below a parent at
 * `parentDepth` (0 = at the root; a root location has depth 1).
 */
export const fitsDepth = (parentDepth: number, subtreeHeight: number): boolean => parentDepth + subtreeHeight <= MAX_LOCATION_DEPTH;

/** One step of a location's ancestor chain: the location at `depth` steps above the one asked about (0 = itself). */
export interface ChainStep {
  id: string;
  parent_id: string | null;
  name: string;
  depth: number;
}

export interface Ancestry {
  /** Root first, the location last; at most MAX_LOCATION_DEPTH names, the nearest ones when the chain is longer. */
  pathNames: string[];
  /** The location's depth (1 for a root location) when its chain reaches a root; null when it does not. */
  depth: number | null;
  /** The chain comes back to a location it already passed (stored by an older version, issue 9). */
  cyclic: boolean;
}

/**
 * Reads a location's ancestor chain, as fetched up to some depth (src/locations/repository.ts). The tree rules
 * keep it a path of at most seven levels, but a database written by an older version can hold a cycle or a
 * longer path: the chain then stops at the first location seen twice, and pathNames keeps the nearest seven, so
 * whatever is stored renders within the published schema (1 to 7 names, the last one the location's own).
 */
export function readAncestry(chain: ChainStep[]): Ancestry {
  const steps = [...chain].sort((a, b) => a.depth - b.depth);
  const seen = new Set<string>();
  const names: string[] = [];
  let cyclic = false;
  let rooted = false;
  for (const step of steps) {
    if (seen.has(step.id)) {
      cyclic = true;
      break;
    }
    seen.add(step.id);
    names.push(step.name);
    if (step.parent_id === null) {
      rooted = true;
      break;
    }
  }
  return { pathNames: names.slice(0, MAX_LOCATION_DEPTH).reverse(), depth: rooted ? names.length : null, cyclic };
}

/**
 * The height of a subtree (1 for a lone location) from its rows with their distance below its top. A stored
 * cycle lists its locations again and again; each counts at its nearest distance, which is its depth once the
 * top moves away from the cycle, so a move that repairs a cycle is judged by the tree it makes.
 */
export function subtreeHeight(rows: { id: string; depth: number }[]): number {
  const nearest = new Map<string, number>();
  for (const r of rows) nearest.set(r.id, Math.min(nearest.get(r.id) ?? r.depth, r.depth));
  return Math.max(0, ...nearest.values()) + 1;
}
