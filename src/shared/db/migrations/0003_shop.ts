import type { Kysely } from 'kysely';

// The shop: catalogue search and update-in-place imports, order listing per lab, and the expected date of a
// backordered line.
export async function up(db: Kysely<any>): Promise<void> {
  // Lower-cased "name catalog vendor": one portable LIKE serves search on both databases (SQLite's LIKE is
  // case-insensitive for ASCII only, PostgreSQL's not at all).
  await db.schema.alterTable('vendor_products').addColumn('search_text', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('vendor_products').addColumn('updated_at', 'text').execute();
  await db.schema.createIndex('vendor_products_list_idx').on('vendor_products').columns(['created_at', 'id']).execute();
  await db.schema.alterTable('sales_order_items').addColumn('backordered_expected_at', 'text').execute();
  await db.schema.alterTable('sales_order_items').addColumn('cancel_reason', 'text').execute();
  await db.schema.createIndex('sales_orders_lab_idx').on('sales_orders').columns(['lab_id', 'created_at', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
