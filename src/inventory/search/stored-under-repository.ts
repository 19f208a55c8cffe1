import { sql } from 'kysely';
import { type Executor, isPostgres } from '../../shared/db/database.js';

// GET /inventory-items?location_id='s subquery (src/inventory/search/repository.ts), in a file of its own.

/**
 * Items with an active instance at the location or anywhere below it. The tree is walked by (lab_id, parent_id),
 * the locations index; UNION, not UNION ALL, so a damaged tree with a cycle still ends. Then each location's
 * instances by the location index: SQLite keeps a CROSS JOIN's order; PostgreSQL, which cannot estimate how big
 * a recursive tree is (it guessed 300 locations, and read every instance), gets the locations as one array.
 */
export function itemsStoredUnder(ex: Executor, locationId: string) {
  const tree = ex.withRecursive('subtree(id, lab_id)', (db) =>
    db
      .selectFrom('locations')
      .select(['locations.id', 'locations.lab_id'])
      .where('locations.id', '=', locationId)
      .union(
        db
          .selectFrom('locations')
          .innerJoin('subtree', (join) =>
            join.onRef('locations.lab_id', '=', 'subtree.lab_id').onRef('locations.parent_id', '=', 'subtree.id'),
          )
          .select(['locations.id', 'locations.lab_id']),
      ),
  );
  if (isPostgres(ex)) {
    const ids = tree.selectFrom('subtree').select('subtree.id');
    return ex
      .selectFrom('inventory_item_instances')
      .select('inventory_item_instances.item_id')
      .distinct()
      .where('inventory_item_instances.location_id', '=', sql<string>`any(array(${ids}))`)
      .where('inventory_item_instances.archived_at', 'is', null);
  }
  return tree
    .selectFrom('subtree')
    .crossJoin('inventory_item_instances')
    .select('inventory_item_instances.item_id')
    .whereRef('inventory_item_instances.location_id', '=', 'subtree.id')
    .where('inventory_item_instances.archived_at', 'is', null);
}
