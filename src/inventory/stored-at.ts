import { emitEvents } from '../events/outbox.js';
import type { StoredAtLocations } from '../locations/service.js';
import { nowIso } from '../shared/time.js';
import { renderItems } from './render.js';
import * as repo from './repository.js';
import { storeChanged } from './stored/documents.js';

// What the location tree needs of the instances stored in it. Locations sit below inventory and never touch its
// tables; a location's rename, move or delete calls these (docs/decisions/0006-domain-order.md).

export const inventoryAtLocations: StoredAtLocations = {
  inUse: repo.hasActiveInstancesAt,
  release: repo.detachArchivedInstances,

  /** Items with active instances in these locations: their instances' pathNames changed, so they changed. */
  async moved(trx, deps, actor, locationIds, lab) {
    if (locationIds.length === 0) return;
    const itemIds = await repo.itemIdsStoredAt(trx, locationIds);
    if (itemIds.length === 0) return;
    await repo.touchItems(trx, itemIds, { userId: actor.userId, now: nowIso() });
    const rows = await repo.findItems(trx, itemIds);
    const items = await renderItems(trx, deps.config.appUrl, rows);
    await storeChanged(
      trx,
      rows.map((row, i) => ({ row, item: items[i]! })),
    );
    await emitEvents(
      trx,
      deps.config,
      items.map((item) => ({
        type: 'inventory-item.updated' as const,
        organizationId: lab.organizationId,
        labId: lab.labId,
        resource: item,
      })),
    );
  },
};
