import { effectiveHazards } from '../hazards/repository.js';
import type { Executor } from '../shared/db/database.js';
import type { CodeView } from './describe.js';
import { itemTypes } from './repository.js';

// What a label prints of a reagent's hazards (docs/labels.md "Hazards"): its GHS pictograms and signal word, derived
// by src/hazards/ from the item's own hazard statements or its type's. A location's label has none.

export interface LabelHazards {
  /** GHS01…GHS09, in the order the rules table gives them. */
  pictograms: string[];
  signalWord: 'Danger' | 'Warning' | null;
}

/** The hazards of each view's item, by item id (items without any are left out). */
export async function hazardsOf(ex: Executor, views: readonly CodeView[]): Promise<Map<string, LabelHazards>> {
  const itemIds = [...new Set(views.map((v) => (v.kind === 'location' ? null : v.item_id)).filter((id): id is string => id !== null))];
  const out = new Map<string, LabelHazards>();
  if (itemIds.length === 0) return out;
  const types = await itemTypes(ex, itemIds);
  const effective = await effectiveHazards(
    ex,
    types.map((t) => ({ itemId: t.id, typeId: t.type_id })),
  );
  for (const [itemId, e] of effective) {
    if (e.pictograms.length > 0 || e.signalWord !== null) out.set(itemId, { pictograms: [...e.pictograms], signalWord: e.signalWord });
  }
  return out;
}

/** The views with their item's hazards attached (what POST /labels renders). */
export async function withHazards<V extends CodeView>(ex: Executor, views: V[]): Promise<(V & { hazards?: LabelHazards })[]> {
  const byItem = await hazardsOf(ex, views);
  return views.map((v) => {
    const h = v.kind !== 'location' && v.item_id ? byItem.get(v.item_id) : undefined;
    return h ? { ...v, hazards: h } : v;
  });
}
