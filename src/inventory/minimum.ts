import type { Actor } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';
import { notFound } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import { finishItemChange, lockVisibleItem, preconditionFailed } from './changes.js';
import { recordHistory } from './history-rows.js';
import { renderItem } from './render.js';
import * as repo from './repository.js';
import { etagOf, ifMatchSatisfied } from './rules.js';
import type { InventoryItem, ItemMinimumQuantity, MinimumQuantityBody } from './schemas.js';
import { isBelowMinimum } from './search/rules.js';

// An item's minimum quantity (docs/product.md §12): set on its own endpoint, never a field of the public item. Setting it
// is an edit of the item like any other: a new version (ETag), a line of history, one inventory-item.updated.

export interface MinimumWithEtag {
  minimum: ItemMinimumQuantity;
  etag: string;
}

const viewOf = (item: InventoryItem, minimum: string | null): ItemMinimumQuantity => ({
  item_id: item.id,
  minimum_quantity: minimum,
  quantity: item.quantity,
  below_minimum: isBelowMinimum(item.quantity, minimum),
});

/** GET /inventory-items/{id}/minimum-quantity: for anyone who sees the item. */
export async function getMinimumQuantity(deps: ServiceDeps, actor: Actor, itemId: string): Promise<MinimumWithEtag> {
  const row = await repo.findVisibleItem(deps.db, actor, itemId);
  if (!row) throw notFound('inventory item');
  const item = await renderItem(deps.db, deps.config.appUrl, row);
  return { minimum: viewOf(item, row.minimum_quantity), etag: etagOf(row.version) };
}

/** PUT /inventory-items/{id}/minimum-quantity: a member of the item's lab (or an org admin) sets or removes it. */
export async function setMinimumQuantity(
  deps: ServiceDeps,
  actor: Actor,
  itemId: string,
  body: MinimumQuantityBody,
  ifMatch?: string,
): Promise<MinimumWithEtag> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockVisibleItem(trx, actor, itemId);
    if (!ifMatchSatisfied(ifMatch, row.version)) throw preconditionFailed();
    if (row.minimum_quantity === body.minimum_quantity) {
      const item = await renderItem(trx, deps.config.appUrl, row);
      return { minimum: viewOf(item, row.minimum_quantity), etag: etagOf(row.version) };
    }
    const now = nowIso();
    await repo.touchItem(trx, row.id, { userId: actor.userId, now, set: { minimum_quantity: body.minimum_quantity } });
    await recordHistory(trx, { itemId: row.id, userId: actor.userId, now }, [
      { field: 'minimum_quantity', old: row.minimum_quantity, new: body.minimum_quantity },
    ]);
    // Stores below_minimum with the item's index and emits inventory-item.updated.
    const { item, etag } = await finishItemChange(trx, deps, row.id);
    return { minimum: viewOf(item, body.minimum_quantity), etag };
  });
}
