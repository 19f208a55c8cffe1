import type { Executor } from '../shared/db/database.js';

// What is stored at locations, with what the placement checks need of each container (docs/safety.md): the item,
// its type and name, its unit size and the container's quantity. Read through the partial index on active
// instances by location (migration 0037), a statement per chunk of locations whatever their number of instances.

export interface StoredRow {
  instance_id: string;
  item_id: string;
  location_id: string;
  quantity: string;
  name: string;
  type_id: string | null;
  unit_size: string | null;
}

const CHUNK = 500;

export async function activeInstancesAt(ex: Executor, locationIds: readonly string[]): Promise<StoredRow[]> {
  const ids = [...new Set(locationIds)];
  const out: StoredRow[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await ex
      .selectFrom('inventory_item_instances as i')
      .innerJoin('inventory_items as it', 'it.id', 'i.item_id')
      .select(['i.id as instance_id', 'i.item_id', 'i.location_id', 'i.quantity', 'it.name', 'it.type_id', 'it.unit_size'])
      .where('i.location_id', 'in', ids.slice(i, i + CHUNK))
      .where('i.archived_at', 'is', null)
      .execute();
    for (const r of rows) out.push({ ...r, location_id: r.location_id! });
  }
  return out;
}

/** An item's active instances' locations (where an approved request's goods will most likely go). */
export async function locationsOfItem(ex: Executor, itemId: string): Promise<string[]> {
  const rows = await ex
    .selectFrom('inventory_item_instances')
    .select('location_id')
    .distinct()
    .where('item_id', '=', itemId)
    .where('archived_at', 'is', null)
    .where('location_id', 'is not', null)
    .execute();
  return rows.map((r) => r.location_id!);
}

/** Active instances by id, with their item's lab, name, type and unit size (the preflight's containers). */
export function instancesByIds(ex: Executor, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('inventory_item_instances as i')
    .innerJoin('inventory_items as it', 'it.id', 'i.item_id')
    .select(['i.id as instance_id', 'i.item_id', 'i.quantity', 'i.location_id', 'it.lab_id', 'it.name', 'it.type_id', 'it.unit_size'])
    .where('i.id', 'in', [...ids])
    .where('i.archived_at', 'is', null)
    .execute();
}

/** Items by id with what a placement needs of them. */
export function itemsByIds(ex: Executor, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('inventory_items')
    .select(['id', 'lab_id', 'name', 'type_id', 'unit_size'])
    .where('id', 'in', [...ids])
    .execute();
}
