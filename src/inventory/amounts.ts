import type { Actor } from '../shared/actor.js';
import { amountView, totalAmount, UNKNOWN } from '../shared/amounts.js';
import type { ServiceDeps } from '../shared/deps.js';
import { notFound } from '../shared/errors.js';
import { activeInstanceQuantities, visibleItemsForAmounts } from './amounts-repository.js';
import type { ItemAmount } from './amounts-schemas.js';
import { itemQuantity } from './rules.js';

const UNKNOWN_VIEW = amountView(UNKNOWN);

// An item's total amount, quantity × unit size in its unit family (src/shared/amounts.ts), and each instance's:
// read on request from the strings the item keeps, so there is nothing stored to fall out of step.

async function amountsOf(deps: ServiceDeps, actor: Actor, ids: string[]): Promise<Map<string, ItemAmount>> {
  const unique = [...new Set(ids)];
  const items = await visibleItemsForAmounts(deps.db, actor, unique);
  const instances = await activeInstanceQuantities(
    deps.db,
    items.map((i) => i.id),
  );
  const byItem = new Map<string, ItemAmount>();
  for (const item of items) {
    byItem.set(item.id, { item_id: item.id, quantity: item.quantity, unit_size: item.unit_size, total: UNKNOWN_VIEW, instances: [] });
  }
  for (const inst of instances) {
    const item = byItem.get(inst.item_id)!;
    item.instances.push({ instance_id: inst.id, quantity: inst.quantity, total: amountView(totalAmount(inst.quantity, item.unit_size)) });
  }
  for (const item of items) {
    const out = byItem.get(item.id)!;
    // The item's quantity as it shows it (src/inventory/render.ts): in a lab that uses instances, theirs summed.
    out.quantity = itemQuantity(
      Boolean(item.uses_instances) || out.instances.length > 0,
      item.quantity,
      out.instances.map((i) => i.quantity),
    );
    out.total = amountView(totalAmount(out.quantity, item.unit_size));
  }
  return byItem;
}

/** GET /inventory-items/{id}/amount: for anyone who sees the item. */
export async function getItemAmount(deps: ServiceDeps, actor: Actor, itemId: string): Promise<ItemAmount> {
  const found = (await amountsOf(deps, actor, [itemId])).get(itemId);
  if (!found) throw notFound('inventory item');
  return found;
}

/**
 * GET /inventory-item-amounts?item_id=…: a page of the list at once, in the order asked. An id the caller may not
 * see, or that no longer exists (deleted since the list was read), is left out: no error, and nothing of it shown.
 */
export async function getItemAmounts(deps: ServiceDeps, actor: Actor, itemIds: string[]): Promise<ItemAmount[]> {
  const byItem = await amountsOf(deps, actor, itemIds);
  const seen = new Set<string>();
  const out: ItemAmount[] = [];
  for (const id of itemIds) {
    const found = byItem.get(id);
    if (found && !seen.has(id)) {
      seen.add(id);
      out.push(found);
    }
  }
  return out;
}
