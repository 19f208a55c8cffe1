/** A migrated lab's location tree is at most this deep (contract, Limits). */
export const MAX_LOCATION_DEPTH = 7;

/**
 * Whether a subtree whose own height is `subtreeHeight` (1 for a single location) may hang below a parent at
 * `parentDepth` (0 = at the root; a root location has depth 1).
 */
export const fitsDepth = (parentDepth: number, subtreeHeight: number): boolean => parentDepth + subtreeHeight <= MAX_LOCATION_DEPTH;

/** Orders a location's ancestor chain (as rows with their distance from it) into pathNames, root first. */
export function pathNamesOf(chain: { name: string; depth: number }[]): string[] {
  return [...chain].sort((a, b) => b.depth - a.depth).map((c) => c.name);
}
