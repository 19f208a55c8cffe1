import { containersOfProfile, profilesAt } from '../hazards/holdings-reads-repository.js';
import { classify } from '../hazards/rules.js';
import {
  type Container,
  conflictsWith,
  groupsOf,
  incompatibility,
  type SegregationFinding,
  type StorageAttributes,
  type StorageGroup,
} from '../hazards/segregation-rules.js';
import type { Executor } from '../shared/db/database.js';
import { readAhead } from '../shared/read-ahead.js';

// The segregation half of a placement check (docs/safety.md) against what a location holds: the kinds of
// containers stored there (statements and storage attributes in force) come from the holdings without reading the
// containers (src/hazards/holdings-repository.ts); only the containers of a kind that conflicts with an incoming
// one are read, so that each finding names its container. A shelf of 1,000 bottles that all go together with the
// incoming one costs one short read.

const attributesOf = (storage: string): StorageAttributes | null => {
  if (!storage) return null;
  const words = storage.split(' ');
  return { corrosive: words.includes('acid') ? 'acid' : words.includes('base') ? 'base' : null, aqueous: words.includes('aqueous') };
};

// A few kinds recur in every request: their groups once each (the rules tables are fixed in a release).
const memo = new Map<string, StorageGroup[]>();
export function groupsOfKind(codes: string, storage: string): StorageGroup[] {
  const key = `${codes}|${storage}`;
  let g = memo.get(key);
  if (!g) {
    const classes = codes ? classify(codes.split(' ')).classes.map((c) => ({ id: c.id, category: c.category })) : [];
    g = groupsOf(classes, attributesOf(storage));
    if (memo.size > 10_000) memo.clear();
    memo.set(key, g);
  }
  return g;
}

export type Profiles = ReturnType<typeof profilesAt>;

/** The kinds stored at `locationId`, read before the incoming containers' groups are known (the preflight's reads together). */
export const profilesAhead = (ex: Executor, locationId: string): Profiles => readAhead(profilesAt(ex, locationId));

/**
 * What each incoming container runs into at `locationId`: the findings of conflictsWith against the containers
 * stored there (not the incoming ones themselves), read only for the kinds that conflict. `ahead`: the kinds,
 * already being read (profilesAhead).
 */
export async function segregationAt(
  ex: Executor,
  locationId: string,
  incoming: readonly Container[],
  incomingIds: ReadonlySet<string>,
  ahead?: Profiles,
): Promise<Map<Container, SegregationFinding[]>> {
  const out = new Map<Container, SegregationFinding[]>();
  const withGroups = incoming.filter((c) => c.groups.length > 0);
  if (withGroups.length === 0) return out;
  const conflicting = (await (ahead ?? profilesAt(ex, locationId))).filter((p) => {
    const groups = groupsOfKind(p.hazard_codes, p.storage);
    return withGroups.some((c) => c.groups.some((a) => groups.some((b) => incompatibility(a, b))));
  });
  const residents: Container[] = [];
  for (const p of conflicting) {
    const groups = groupsOfKind(p.hazard_codes, p.storage);
    for (const r of await containersOfProfile(ex, locationId, p))
      if (!incomingIds.has(r.instance_id)) residents.push({ instanceId: r.instance_id, itemId: r.item_id, itemName: r.name, groups });
  }
  for (const c of withGroups) out.set(c, conflictsWith(c, residents));
  return out;
}
