import type { Kysely } from 'kysely';

// Pages of items are found in the index alone, then fetched by id (src/inventory/repository.ts): with lab_id in
// the ordering index, the rows an OFFSET skips are never read from the table, whichever labs are visible.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('inventory_items_page_idx').on('inventory_items').columns(['created_at', 'id', 'lab_id']).execute();
  await db.schema.dropIndex('inventory_items_order_idx').execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
