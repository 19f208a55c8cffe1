import { countableItemsByIds } from '../inventory/counting-repository.js';
import type { Actor } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, notFound } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import { liveLines } from './lines.js';
import * as repo from './repository.js';
import type { ItemCountBody, StocktakeLine } from './schemas.js';
import { notOpen, visibleSession } from './service.js';

// Counting the items of a lab that does not use instances (docs/stocktake.md, "Labs without instances"): the same
// upsert as a container's count (one row per session and item, in stocktake_counts with the item's id as what was
// counted, migration 0035), so two people counting at once never lose each other's counts.

const countsContainers = () =>
  new AppError('conflict', 'This count covers a location of a lab that uses instances: count each container (…/counts/{instanceId})');

/** PUT /stocktakes/{id}/items/{itemId}: the item is there (ticked), or holds the quantity counted. */
export async function countItem(deps: ServiceDeps, actor: Actor, id: string, itemId: string, input: ItemCountBody): Promise<StocktakeLine> {
  return deps.db.transaction().execute(async (trx) => {
    const { session, lab } = await visibleSession(trx, actor, id, { lock: 'share' });
    if (session.status !== 'open') throw notOpen(session);
    if (session.location_id !== null) throw countsContainers();
    // Migrated since the count started: its items' quantities are now their containers'.
    if (lab.uses_instances) throw new AppError('conflict', 'This lab now uses instances: cancel this count and count its locations');
    const [item] = await countableItemsByIds(trx, session.lab_id, [itemId]);
    if (!item) throw notFound('inventory item');
    await repo.upsertCount(trx, {
      session_id: session.id,
      instance_id: item.item_id,
      item_id: item.item_id,
      quantity: input.quantity ?? null,
      recorded_quantity: item.quantity,
      recorded_location_id: null,
      found_location_id: null,
      counted_by: actor.userId,
      counted_at: nowIso(),
    });
    const { lines } = await liveLines(trx, session);
    return lines.find((l) => l.item_id === item.item_id)!;
  });
}

/** DELETE /stocktakes/{id}/items/{itemId}: takes an item's count back. */
export async function uncountItem(deps: ServiceDeps, actor: Actor, id: string, itemId: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const { session } = await visibleSession(trx, actor, id, { lock: 'share' });
    if (session.status !== 'open') throw notOpen(session);
    if (session.location_id !== null) throw countsContainers();
    if (!(await repo.deleteCount(trx, session.id, itemId))) throw notFound('count');
  });
}
