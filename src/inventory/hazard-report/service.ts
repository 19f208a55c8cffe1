import { limitsOfArea } from '../../hazards/control-area.js';
import { controlAreasOfLab } from '../../hazards/control-area-repository.js';
import { type Contribution, meter } from '../../hazards/control-area-rules.js';
import { effectiveHazards } from '../../hazards/repository.js';
import { findVisibleLab } from '../../labs/repository.js';
import { locationsOfLab } from '../../locations/repository.js';
import type { Actor } from '../../shared/actor.js';
import { isKnown, totalAmount } from '../../shared/amounts.js';
import type { ServiceDeps } from '../../shared/deps.js';
import { notFound } from '../../shared/errors.js';
import { nowIso } from '../../shared/time.js';
import { legacyItems, type StoredRow, storedInstances } from './repository.js';
import { buildGroups, type GroupOf, type Place, type ReportBy, type ReportContainerIn } from './rules.js';
import type { HazardReport, ReportLimit } from './schemas.js';

// A lab's hazard inventory for the safety office (docs/hazard-reports.md): visible exactly to those who see the lab.

interface Tree {
  pathOf(id: string | null): string[];
  rootOf(id: string): string;
  subtree(id: string): string[];
  has(id: string): boolean;
  /** The location and its ancestors, nearest first. */
  upwards(id: string): string[];
}

function treeOf(rows: { id: string; parent_id: string | null; name: string }[]): Tree {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const children = new Map<string, string[]>();
  for (const r of rows) if (r.parent_id) (children.get(r.parent_id) ?? children.set(r.parent_id, []).get(r.parent_id)!).push(r.id);
  // Walks up at most as many steps as there are locations, so a damaged chain cannot loop.
  const chain = (id: string): string[] => {
    const out: string[] = [];
    let at: string | null | undefined = id;
    while (at && byId.has(at) && out.length <= rows.length) {
      out.unshift(at);
      at = byId.get(at)!.parent_id;
    }
    return out;
  };
  return {
    pathOf: (id) => (id ? chain(id).map((x) => byId.get(x)!.name) : []),
    rootOf: (id) => chain(id)[0] ?? id,
    subtree: (id) => {
      const out: string[] = [];
      const todo = [id];
      while (todo.length > 0 && out.length <= rows.length) {
        const next = todo.pop()!;
        out.push(next);
        todo.push(...(children.get(next) ?? []));
      }
      return out;
    },
    has: (id) => byId.has(id),
    upwards: (id) => chain(id).reverse(),
  };
}

const amountOf = (quantity: string, unitSize: string | null): Contribution['amount'] => {
  const a = totalAmount(quantity, unitSize);
  return isKnown(a) ? { family: a.family, value: a.base.toFixed() } : null;
};

export async function hazardReport(
  deps: ServiceDeps,
  actor: Actor,
  labId: string,
  query: { by?: ReportBy | undefined; location_id?: string | undefined },
): Promise<HazardReport> {
  const db = deps.db;
  const lab = await findVisibleLab(db, actor, labId);
  if (!lab) throw notFound('lab');
  const by = query.by ?? 'location';
  const tree = treeOf(await locationsOfLab(db, labId));
  const scopeId = query.location_id;
  if (scopeId !== undefined && !tree.has(scopeId)) throw notFound('location in that lab');
  const scopeIds = scopeId === undefined ? null : tree.subtree(scopeId);

  let rows: StoredRow[];
  if (lab.uses_instances) rows = await storedInstances(db, labId, scopeIds);
  // A lab without instances types its locations as words: a report of a location subtree has nothing of it.
  else rows = scopeIds === null ? (await legacyItems(db, labId)).filter((r) => Number(r.quantity) > 0) : [];

  const hazards = await effectiveHazards(db, [...new Map(rows.map((r) => [r.item_id, { itemId: r.item_id, typeId: r.type_id }])).values()]);
  const containers: ReportContainerIn[] = rows.map((r) => {
    const h = hazards.get(r.item_id);
    const place: Place = lab.uses_instances
      ? { id: r.location_id, path: tree.pathOf(r.location_id) }
      : { id: null, path: [r.location_name, r.sublocation_name].filter((n): n is string => !!n) };
    return {
      itemId: r.item_id,
      instanceId: r.instance_id,
      name: r.name,
      place,
      quantity: r.quantity,
      unitSize: r.unit_size,
      codes: h?.codes ?? [],
      classes: h?.classes ?? [],
    };
  });

  let groupOf: (c: ReportContainerIn) => GroupOf | undefined;
  if (by === 'location') groupOf = (c) => ({ place: c.place, limits: null });
  else if (by === 'building') {
    groupOf = (c) => {
      if (c.place.id === null) return { place: { id: null, path: c.place.path.slice(0, 1) }, limits: null };
      const root = tree.rootOf(c.place.id);
      return { place: { id: root, path: tree.pathOf(root) }, limits: null };
    };
  } else groupOf = await controlAreaGroups(deps, labId, tree, containers);

  return {
    lab: { id: lab.id, name: lab.name },
    by,
    scope: scopeId === undefined ? null : { id: scopeId, path: tree.pathOf(scopeId) },
    generated_at: nowIso(),
    groups: buildGroups(containers, groupOf),
  };
}

/**
 * Each control area with everything stored below it, and its meter. A container under two nested control areas
 * counts in the innermost, as the placement checks count it (docs/safety.md).
 */
async function controlAreaGroups(deps: ServiceDeps, labId: string, tree: Tree, containers: ReportContainerIn[]) {
  const areas = new Map((await controlAreasOfLab(deps.db, labId)).map((a) => [a.location_id, a]));
  const areaOf = (locationId: string | null): string | undefined =>
    locationId === null ? undefined : tree.upwards(locationId).find((id) => areas.has(id));
  const inArea = new Map<string, ReportContainerIn[]>();
  for (const c of containers) {
    const area = areaOf(c.place.id);
    if (area) (inArea.get(area) ?? inArea.set(area, []).get(area)!).push(c);
  }
  const limits = new Map<string, ReportLimit[]>();
  for (const [areaId, list] of inArea) {
    const stored: Contribution[] = list.map((c) => ({
      instanceId: c.instanceId,
      itemId: c.itemId,
      itemName: c.name,
      classes: c.classes,
      amount: amountOf(c.quantity, c.unitSize),
    }));
    limits.set(
      areaId,
      meter(limitsOfArea(areas.get(areaId)!), stored).map((m) => ({
        label: m.label,
        state: m.state,
        unit: m.unit,
        stored: m.amount,
        limit: m.limit,
        over: m.over,
        text: `${m.amount} ${m.unit} of ${m.limit} ${m.unit}`,
        unknown: m.unknown_containers,
      })),
    );
  }
  return (c: ReportContainerIn): GroupOf | undefined => {
    const area = areaOf(c.place.id);
    return area ? { place: { id: area, path: tree.pathOf(area) }, limits: limits.get(area) ?? [] } : undefined;
  };
}
