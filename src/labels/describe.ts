import type { Executor } from '../shared/db/database.js';
import type { LabelCodesTable } from '../shared/db/schema.js';
import * as repo from './repository.js';
import { appPathOf, locationPath } from './rules.js';

/** A code with what its label prints (GET /codes/{code}, the label sheets). */
export interface CodeView {
  code: string;
  kind: 'instance' | 'location' | 'item';
  lab_id: string;
  item_id: string | null;
  instance_id: string | null;
  location_id: string | null;
  /** The thing's name (an instance's item, a location's own name). */
  title: string;
  /** The rest of the human-readable text, one line each: lot and expiry, location path, lab. */
  lines: string[];
  /** title and lines in one line. */
  label: string;
  app_path: string;
  archived: boolean;
}

type Tree = Map<string, { parent_id: string | null; name: string }>;

function pathOf(tree: Tree, id: string | null): string | null {
  if (!id) return null;
  const names: string[] = [];
  const seen = new Set<string>();
  for (let at: string | null = id; at && !seen.has(at); ) {
    seen.add(at);
    const node = tree.get(at);
    if (!node) break;
    names.unshift(node.name);
    at = node.parent_id;
  }
  return names.length ? locationPath(names) : null;
}

const lotAndExpiry = (lot: string | null, expiry: string | null): string | null =>
  [lot ? `Lot ${lot}` : null, expiry ? `Exp ${expiry}` : null].filter(Boolean).join('  ') || null;

/**
 * What each code's label says, in the order given. Codes whose thing is gone (a deleted item or location) are left
 * out: nothing to print and nothing to open.
 */
export async function describeCodes(ex: Executor, rows: readonly LabelCodesTable[]): Promise<CodeView[]> {
  const ids = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => r.target_id);
  const [instances, items] = await Promise.all([repo.instanceFacts(ex, ids('instance')), repo.itemFacts(ex, ids('item'))]);
  const labIds = [...new Set(rows.map((r) => r.lab_id))];
  const [locations, labs] = await Promise.all([repo.locationsOfLabs(ex, labIds), repo.labNames(ex, labIds)]);
  const tree: Tree = new Map(locations.map((l) => [l.id, l]));
  const instanceById = new Map(instances.map((i) => [i.id, i]));
  const itemById = new Map(items.map((i) => [i.id, i]));
  const out: CodeView[] = [];
  for (const r of rows) {
    const lab = labs.get(r.lab_id) ?? '';
    const base = { code: r.code, kind: r.kind, lab_id: r.lab_id };
    let view: Omit<CodeView, 'label' | 'app_path'> | null = null;
    if (r.kind === 'instance') {
      const i = instanceById.get(r.target_id);
      if (i)
        view = {
          ...base,
          item_id: i.item_id,
          instance_id: i.id,
          location_id: i.location_id,
          title: i.name,
          lines: [lotAndExpiry(i.lot_number, i.expiration_date), pathOf(tree, i.location_id), lab].filter((x): x is string => !!x),
          archived: i.archived_at !== null,
        };
    } else if (r.kind === 'item') {
      const i = itemById.get(r.target_id);
      const place = i && [i.location_name, i.sublocation_name].filter(Boolean).join(' / ');
      if (i)
        view = {
          ...base,
          item_id: i.id,
          instance_id: null,
          location_id: null,
          title: i.name,
          lines: [lotAndExpiry(i.lot_number, i.expiration_date), place || null, lab].filter((x): x is string => !!x),
          archived: false,
        };
    } else {
      const l = tree.get(r.target_id);
      if (l)
        view = {
          ...base,
          item_id: null,
          instance_id: null,
          location_id: r.target_id,
          title: l.name,
          lines: [pathOf(tree, r.target_id)!, lab].filter(Boolean),
          archived: false,
        };
    }
    if (!view) continue;
    out.push({
      ...view,
      label: [view.title, ...view.lines].join(' · '),
      app_path: appPathOf(r.kind, { labId: r.lab_id, itemId: view.item_id, targetId: r.target_id }),
    });
  }
  return out;
}
