import type { components } from '@labstock/client';

// The lab's locations arrive flat (GET /labs/{id}/locations, each with parent_id and pathNames); the page shows
// them as a tree. The server keeps the tree rules (src/locations/rules.ts): nothing here decides what is allowed.

export type Location = components['schemas']['Location'];

export interface LocationNode {
  location: Location;
  children: LocationNode[];
}

const byName = (a: LocationNode, b: LocationNode) => a.location.name.localeCompare(b.location.name);

/**
 * The tree below the root locations, and whatever is not reached from a root: a database written by an older
 * version can hold a cycle (src/locations/rules.ts, readAncestry), and those locations must stay visible so they
 * can be moved back under a root.
 */
export function buildTree(locations: Location[]): { roots: LocationNode[]; unreachable: Location[] } {
  const nodes = new Map(locations.map((location) => [location.id, { location, children: [] } as LocationNode]));
  const roots: LocationNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.location.parent_id === null ? undefined : nodes.get(node.location.parent_id);
    if (node.location.parent_id === null) roots.push(node);
    else parent?.children.push(node);
  }
  const reached = new Set<string>();
  const visit = (node: LocationNode) => {
    if (reached.has(node.location.id)) return;
    reached.add(node.location.id);
    node.children.sort(byName);
    for (const child of node.children) visit(child);
  };
  roots.sort(byName);
  for (const root of roots) visit(root);
  return { roots, unreachable: locations.filter((l) => !reached.has(l.id)) };
}

/** The location and every location below it: none of them can be its new parent. */
export function subtreeIds(locations: Location[], id: string): Set<string> {
  const ids = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const l of locations) {
      if (l.parent_id !== null && ids.has(l.parent_id) && !ids.has(l.id)) {
        ids.add(l.id);
        grew = true;
      }
    }
  }
  return ids;
}

export const pathOf = (location: Location): string => location.pathNames.join(' / ');
