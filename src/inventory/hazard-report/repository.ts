import type { Executor } from '../../shared/db/database.js';

// What a lab's hazard report reads of its stock (docs/hazard-reports.md): every active container of a lab that uses
// instances, or every item with a quantity of a lab that does not, with what the report shows of it. Hazards come
// from src/hazards/ (effectiveHazards), locations from src/locations/.

export interface StoredRow {
  item_id: string;
  instance_id: string | null;
  type_id: string | null;
  name: string;
  unit_size: string | null;
  quantity: string;
  location_id: string | null;
  /** A legacy lab's location and sublocation, as typed (they have no location ids). */
  location_name: string | null;
  sublocation_name: string | null;
}

/** The active instances of a lab's items, optionally only those stored at `locationIds`. */
export async function storedInstances(ex: Executor, labId: string, locationIds: string[] | null): Promise<StoredRow[]> {
  if (locationIds !== null && locationIds.length === 0) return [];
  let q = ex
    .selectFrom('inventory_item_instances as i')
    .innerJoin('inventory_items as it', 'it.id', 'i.item_id')
    .select([
      'it.id as item_id',
      'i.id as instance_id',
      'it.type_id',
      'it.name',
      'it.unit_size',
      'i.quantity',
      'i.location_id',
      'it.location_name',
      'it.sublocation_name',
    ])
    .where('it.lab_id', '=', labId)
    .where('i.archived_at', 'is', null);
  if (locationIds !== null) q = q.where('i.location_id', 'in', locationIds);
  const rows = await q.orderBy('it.name').orderBy('i.created_at').orderBy('i.id').execute();
  return rows.map((r) => ({ ...r, location_name: null, sublocation_name: null }));
}

/** The items of a lab that keeps no instances: each item is one entry with its typed location. */
export async function legacyItems(ex: Executor, labId: string): Promise<StoredRow[]> {
  const rows = await ex
    .selectFrom('inventory_items')
    .select(['id', 'type_id', 'name', 'unit_size', 'quantity', 'location_name', 'sublocation_name'])
    .where('lab_id', '=', labId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, item_id: r.id, instance_id: null, location_id: null }));
}
