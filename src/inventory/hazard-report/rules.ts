import { CLASS_BY_ID, HAZARD_CLASSES } from '../../hazards/ghs-classes.js';
import type { ClassifiedClass } from '../../hazards/rules.js';
import { amountView, sumAmounts, totalAmount } from '../../shared/amounts.js';
import type { ReportClass, ReportContainer, ReportGroup, ReportLimit } from './schemas.js';

// A lab's hazard inventory (docs/hazard-reports.md), pure: containers with their hazard classes, grouped by where they
// are (a location, a building, a control area), then by hazard class with the containers and their amounts summed per
// unit family. A container whose size cannot be read is counted as unknown and listed, never guessed.

export type ReportBy = 'location' | 'building' | 'control-area';

export interface Place {
  /** The location's id; null for a legacy lab's typed location or for no location at all. */
  id: string | null;
  /** Root to leaf; [] for no location. */
  path: string[];
}

export interface ReportContainerIn {
  itemId: string;
  instanceId: string | null;
  name: string;
  place: Place;
  quantity: string;
  unitSize: string | null;
  codes: string[];
  classes: ClassifiedClass[];
}

export interface GroupOf {
  place: Place;
  /** A control area's limits with what it holds against each (src/hazards/control-area-rules.ts meter); null elsewhere. */
  limits: ReportLimit[] | null;
}

const CLASS_ORDER = new Map(HAZARD_CLASSES.map((c, i) => [c.id, i]));
const placeKey = (p: Place) => p.id ?? `~${p.path.join('\u0000')}`;

/** The most severe of two categories of one class (its categories are listed most severe first). */
function moreSevere(classId: string, a: string, b: string): string {
  const order = CLASS_BY_ID.get(classId)?.categories ?? [];
  const ia = order.indexOf(a);
  const ib = order.indexOf(b);
  return ib !== -1 && (ia === -1 || ib < ia) ? b : a;
}

/**
 * The report's groups: `groupOf` says where a container is counted (undefined: not in this report, e.g. outside
 * every control area). Groups in path order, no location last; classes in the rules table's order.
 */
export function buildGroups(containers: ReportContainerIn[], groupOf: (c: ReportContainerIn) => GroupOf | undefined): ReportGroup[] {
  const groups = new Map<string, { group: GroupOf; byClass: Map<string, { category: string; rows: ReportContainerIn[] }> }>();
  for (const c of containers) {
    if (c.classes.length === 0) continue;
    const group = groupOf(c);
    if (!group) continue;
    const key = placeKey(group.place);
    const entry = groups.get(key) ?? groups.set(key, { group, byClass: new Map() }).get(key)!;
    for (const k of c.classes) {
      const cls = entry.byClass.get(k.id);
      if (cls) {
        cls.rows.push(c);
        cls.category = moreSevere(k.id, cls.category, k.category);
      } else entry.byClass.set(k.id, { category: k.category, rows: [c] });
    }
  }
  const out: ReportGroup[] = [];
  for (const { group, byClass } of groups.values()) {
    const classes: ReportClass[] = [...byClass.entries()]
      .sort(([a], [b]) => (CLASS_ORDER.get(a) ?? 999) - (CLASS_ORDER.get(b) ?? 999))
      .map(([classId, { category, rows }]) => classView(classId, category, rows));
    out.push({
      location: { id: group.place.id, path: group.place.path },
      control_area: group.limits !== null,
      limits: group.limits ?? [],
      classes,
    });
  }
  return out.sort((a, b) => comparePaths(a.location.path, b.location.path));
}

function comparePaths(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return b.length - a.length;
  return a.join(' / ').localeCompare(b.join(' / '), 'en');
}

function classView(classId: string, category: string, rows: ReportContainerIn[]): ReportClass {
  const amounts = rows.map((r) => totalAmount(r.quantity, r.unitSize));
  const totals = sumAmounts(amounts);
  const containers: ReportContainer[] = rows.map((r, i) => ({
    item_id: r.itemId,
    instance_id: r.instanceId,
    name: r.name,
    location_path: r.place.path,
    quantity: r.quantity,
    unit_size: r.unitSize,
    amount: amountView(amounts[i]!),
    category: r.classes.find((k) => k.id === classId)?.category ?? category,
    hazard_statements: r.codes,
  }));
  return {
    class_id: classId,
    name: CLASS_BY_ID.get(classId)?.name ?? classId,
    category,
    containers: containers.length,
    total: {
      mass: totals.mass ? amountView(totals.mass) : null,
      volume: totals.volume ? amountView(totals.volume) : null,
      count: totals.count ? amountView(totals.count) : null,
    },
    unknown: totals.unknown,
    items: containers,
  };
}

/** Words for a class's total: "12.5 L, 3 kg and 2 containers of unknown size". */
export function totalWords(cls: Pick<ReportClass, 'total' | 'unknown'>): string {
  const parts = [cls.total.volume?.text, cls.total.mass?.text, cls.total.count?.text].filter((t): t is string => !!t);
  if (cls.unknown > 0) parts.push(`${cls.unknown} container${cls.unknown === 1 ? '' : 's'} of unknown size`);
  if (parts.length === 0) return 'nothing';
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

export const placeWords = (path: string[]): string => (path.length === 0 ? 'No location' : path.join(' / '));
