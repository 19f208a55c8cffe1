import type { Kysely } from 'kysely';

// Stocktake (docs/stocktake.md, docs/product.md §14): a count of a location subtree.
//
// - stocktake_sessions: one count of a location and everything below it, open until applied or cancelled (so it can
//   be left and resumed); `result` is the session's lines as they stood when it was applied (JSON), so its report
//   still says what was missing, unexpected and different after the apply changed the inventory. location_id carries no foreign key: an emptied location may be deleted later, and the
//   session's report stays true to what was counted.
// - stocktake_counts: one row per (session, instance), written as an upsert, so two people counting one session
//   never overwrite each other's rows; the same container counted twice keeps the later count. recorded_quantity
//   and recorded_location_id are what the inventory said when it was counted (the apply adds the difference, so a
//   use recorded between the count and the apply is not lost); found_location_id is where it was found when that
//   is not where it is recorded (null: where recorded). instance_id and item_id carry no foreign key: an item may be
//   deleted while a count names it (src/inventory/repository.ts deleteItem knows nothing of counts), and an applied
//   count's report stays true to what was counted.
// - inventory_item_changes.stocktake_session_id: the session an item's history entry came from.
export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text';
  await db.schema.createTable('stocktake_sessions')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('lab_id', text, (c) => c.notNull().references('labs.id'))
    .addColumn('location_id', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('started_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('started_at', text, (c) => c.notNull())
    .addColumn('finished_by', text, (c) => c.references('users.id'))
    .addColumn('finished_at', text)
    .addColumn('missing_to_zero', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('result', text)
    .execute();
  await db.schema.createIndex('stocktake_sessions_lab_idx').on('stocktake_sessions').columns(['lab_id', 'status', 'started_at']).execute();
  await db.schema.createTable('stocktake_counts')
    .addColumn('session_id', text, (c) => c.notNull().references('stocktake_sessions.id'))
    .addColumn('instance_id', text, (c) => c.notNull())
    .addColumn('item_id', text, (c) => c.notNull())
    .addColumn('quantity', text)
    .addColumn('recorded_quantity', text, (c) => c.notNull())
    .addColumn('recorded_location_id', text)
    .addColumn('found_location_id', text)
    .addColumn('counted_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('counted_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('stocktake_counts_pk', ['session_id', 'instance_id'])
    .execute();
  await db.schema.alterTable('inventory_item_changes').addColumn('stocktake_session_id', text).execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
