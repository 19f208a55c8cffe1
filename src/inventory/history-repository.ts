import type { Executor } from '../shared/db/database.js';

// What an item's history needs to say which lot and where (src/inventory/history.ts).

/** Instances by id, archived ones included: a history entry names the lot of an instance long gone. */
export const instancesByIds = (ex: Executor, ids: string[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : ex.selectFrom('inventory_item_instances').select(['id', 'lot_number', 'location_id']).where('id', 'in', ids).execute();
