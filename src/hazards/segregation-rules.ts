import type { CorrosiveKind } from '../shared/db/schema.js';
import type { HazardClassRef } from './control-area-rules.js';
import { CLASS_GROUPS, GROUP_LABEL, INCOMPATIBLE, type StorageGroup } from './segregation-data.js';

// Segregation (docs/safety.md): the storage groups of a container, and which containers at one location conflict.
// Pure: the callers read the classes and storage attributes.

export type { StorageGroup } from './segregation-data.js';

export interface StorageAttributes {
  corrosive: CorrosiveKind | null;
  aqueous: boolean;
}

/** A container's storage groups: from its GHS classes, and acid, base or aqueous from its storage attributes. */
export function groupsOf(classes: readonly HazardClassRef[], attributes: StorageAttributes | null | undefined): StorageGroup[] {
  const out = new Set<StorageGroup>();
  for (const c of classes) {
    for (const row of CLASS_GROUPS) {
      if (row.classId === c.id && (row.categories.length === 0 || row.categories.includes(c.category ?? ''))) out.add(row.group);
    }
  }
  if (attributes?.corrosive) out.add(attributes.corrosive);
  if (attributes?.aqueous) out.add('aqueous');
  return [...out].sort();
}

const PAIRS = new Map<string, string>();
for (const p of INCOMPATIBLE) {
  PAIRS.set(`${p.a}|${p.b}`, p.why);
  PAIRS.set(`${p.b}|${p.a}`, p.why);
}

/** Why two groups may not share a location, or undefined when they may. */
export const incompatibility = (a: StorageGroup, b: StorageGroup): string | undefined => PAIRS.get(`${a}|${b}`);

export interface Container {
  instanceId: string | null;
  itemId: string | null;
  itemName: string;
  groups: readonly StorageGroup[];
}

export interface SegregationFinding {
  /** The container that conflicts (already at the location). */
  instance_id: string | null;
  item_id: string | null;
  item_name: string;
  /** The incoming container's group, the other's, and why. */
  group: StorageGroup;
  other_group: StorageGroup;
  reason: string;
}

/**
 * The containers at a location the incoming one conflicts with: one finding per container and pair of groups.
 * Containers of the same item never conflict with each other (two bottles of nitric acid are one substance).
 */
export function conflictsWith(incoming: Container, resident: readonly Container[]): SegregationFinding[] {
  const out: SegregationFinding[] = [];
  for (const r of resident) {
    if (incoming.itemId !== null && r.itemId === incoming.itemId) continue;
    for (const g of incoming.groups) {
      for (const h of r.groups) {
        const why = incompatibility(g, h);
        if (why) out.push({ instance_id: r.instanceId, item_id: r.itemId, item_name: r.itemName, group: g, other_group: h, reason: why });
      }
    }
  }
  return out;
}

export interface LocationConflict {
  a: { instance_id: string | null; item_id: string | null; item_name: string; group: StorageGroup };
  b: { instance_id: string | null; item_id: string | null; item_name: string; group: StorageGroup };
  reason: string;
}

/** Every conflicting pair of containers at one location (the per-location report), each pair once. */
export function conflictsAmong(containers: readonly Container[]): LocationConflict[] {
  const out: LocationConflict[] = [];
  containers.forEach((x, i) => {
    for (const f of conflictsWith(x, containers.slice(i + 1))) {
      out.push({
        a: { instance_id: x.instanceId, item_id: x.itemId, item_name: x.itemName, group: f.group },
        b: { instance_id: f.instance_id, item_id: f.item_id, item_name: f.item_name, group: f.other_group },
        reason: f.reason,
      });
    }
  });
  return out;
}

/** How a person reads a storage group ("oxidizers"). */
export const GROUP_LABEL_OF = (g: StorageGroup): string => GROUP_LABEL[g];

/** "Hydrogen peroxide 30 % (oxidizers) beside Acetone (flammables): an oxidizer feeds a fire of flammables". */
export function segregationSentence(incomingName: string, f: SegregationFinding): string {
  return `${incomingName} (${GROUP_LABEL[f.group]}) beside ${f.item_name} (${GROUP_LABEL[f.other_group]}): ${f.reason}`;
}
