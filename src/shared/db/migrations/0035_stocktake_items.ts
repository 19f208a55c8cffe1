import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Counting a lab that does not use instances (docs/stocktake.md, "Labs without instances"): such a count covers the
// whole lab, so stocktake_sessions.location_id becomes nullable (null: the count covers its lab's items, not a
// location subtree). Its counts are rows of stocktake_counts whose instance_id holds the item's id: the item is its
// own single container (docs/labels.md), so "one count per (session, container)" and its upsert stay as they are.
//
// PostgreSQL drops the NOT NULL in place. SQLite cannot alter a column: both tables are rebuilt (counts reference
// sessions, so the counts are moved aside first and their foreign key follows the new sessions table), with the
// same columns, keys and index, and every row copied.
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.schema.alterTable('stocktake_sessions').alterColumn('location_id', (c) => c.dropNotNull()).execute();
    return;
  }
  const text = 'text';
  await db.schema.dropIndex('stocktake_sessions_lab_idx').execute();
  await db.schema.alterTable('stocktake_counts').renameTo('stocktake_counts_0033').execute();
  await db.schema.alterTable('stocktake_sessions').renameTo('stocktake_sessions_0033').execute();
  await db.schema.createTable('stocktake_sessions')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('lab_id', text, (c) => c.notNull().references('labs.id'))
    .addColumn('location_id', text)
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
  await sql`insert into stocktake_sessions select id, lab_id, location_id, status, started_by, started_at, finished_by, finished_at, missing_to_zero, result from stocktake_sessions_0033`.execute(db);
  await sql`insert into stocktake_counts select session_id, instance_id, item_id, quantity, recorded_quantity, recorded_location_id, found_location_id, counted_by, counted_at from stocktake_counts_0033`.execute(db);
  await db.schema.dropTable('stocktake_counts_0033').execute();
  await db.schema.dropTable('stocktake_sessions_0033').execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
