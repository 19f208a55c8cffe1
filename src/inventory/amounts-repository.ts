import { labIsVisible } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';

// What an item's amount needs (docs/hazard-reports.md "Amounts"): its quantity and unit size, only for items the
// caller may see, and the quantities of its active instances.

export interface AmountItemRow {
  id: string;
  quantity: string;
  unit_size: string | null;
  uses_instances: number | boolean;
}

/** The items of `ids` the caller may see (in no particular order); ids of other tenants are simply not found. */
export async function visibleItemsForAmounts(ex: Executor, actor: Actor, ids: string[]): Promise<AmountItemRow[]> {
  if (ids.length === 0) return [];
  return ex
    .selectFrom('inventory_items')
    .innerJoin('labs', 'labs.id', 'inventory_items.lab_id')
    .select(['inventory_items.id', 'inventory_items.quantity', 'inventory_items.unit_size', 'labs.uses_instances'])
    .where('inventory_items.id', 'in', ids)
    .where(({ exists }) => exists(labIsVisible(ex, actor, 'inventory_items.lab_id')))
    .execute();
}

/** The active instances of these items, each item's in creation order. */
export async function activeInstanceQuantities(ex: Executor, itemIds: string[]) {
  if (itemIds.length === 0) return [];
  return ex
    .selectFrom('inventory_item_instances')
    .select(['id', 'item_id', 'quantity'])
    .where('item_id', 'in', itemIds)
    .where('archived_at', 'is', null)
    .orderBy('item_id')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
