import type { Executor } from '../shared/db/database.js';

// What a stocktake (src/stocktake/) reads of the instances it counts: each active instance with its item's name,
// by where it is stored or by id, within one lab. The stocktake never reads these tables itself (each table has one
// owning folder, docs/decisions/0005-layers.md).

export interface CountableInstance {
  instance_id: string;
  item_id: string;
  item_name: string;
  vendor: string | null;
  catalog_number: string | null;
  unit_size: string | null;
  quantity: string;
  lot_number: string | null;
  expiration_date: string | null;
  location_id: string | null;
}

function countable(ex: Executor, labId: string) {
  return ex
    .selectFrom('inventory_item_instances as i')
    .innerJoin('inventory_items as it', 'it.id', 'i.item_id')
    .select([
      'i.id as instance_id',
      'i.item_id',
      'it.name as item_name',
      'it.vendor',
      'it.catalog_number',
      'it.unit_size',
      'i.quantity',
      'i.lot_number',
      'i.expiration_date',
      'i.location_id',
    ])
    .where('it.lab_id', '=', labId)
    .where('i.archived_at', 'is', null);
}

/** The lab's active instances stored at any of these locations, by item name then lot. */
export function countableAt(ex: Executor, labId: string, locationIds: string[]): Promise<CountableInstance[]> {
  if (locationIds.length === 0) return Promise.resolve([]);
  return countable(ex, labId)
    .where('i.location_id', 'in', locationIds)
    .orderBy('it.name')
    .orderBy('i.lot_number')
    .orderBy('i.id')
    .execute();
}

/** The lab's active instances among these ids (others' ids, archived ones and unknown ids are simply absent). */
export function countableByIds(ex: Executor, labId: string, ids: string[]): Promise<CountableInstance[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return countable(ex, labId).where('i.id', 'in', ids).orderBy('it.name').orderBy('i.id').execute();
}

/** An item of a lab that does not use instances, as a count reads it: the item is its own single container. */
export interface CountableItem {
  item_id: string;
  item_name: string;
  vendor: string | null;
  catalog_number: string | null;
  unit_size: string | null;
  quantity: string;
  lot_number: string | null;
  expiration_date: string | null;
  location_name: string | null;
  sublocation_name: string | null;
}

function countableItems(ex: Executor, labId: string) {
  return ex
    .selectFrom('inventory_items as it')
    .select([
      'it.id as item_id',
      'it.name as item_name',
      'it.vendor',
      'it.catalog_number',
      'it.unit_size',
      'it.quantity',
      'it.lot_number',
      'it.expiration_date',
      'it.location_name',
      'it.sublocation_name',
    ])
    .where('it.lab_id', '=', labId);
}

/** Every item of the lab (one that does not use instances: the caller checks), by location, sublocation, then name (the order one walks a lab). */
export function countableItemsOf(ex: Executor, labId: string): Promise<CountableItem[]> {
  return countableItems(ex, labId).orderBy('it.location_name').orderBy('it.sublocation_name').orderBy('it.name').orderBy('it.id').execute();
}

/** The lab's items among these ids (others' ids and unknown ids are simply absent). */
export function countableItemsByIds(ex: Executor, labId: string, ids: string[]): Promise<CountableItem[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return countableItems(ex, labId).where('it.id', 'in', ids).orderBy('it.name').orderBy('it.id').execute();
}
