import { type Kysely, sql } from 'kysely';

// The control-area meter and the limit check (issue 26 bench, docs/performance.md "Control-area meter at 1,000,000
// instances") read a control area's active containers per item through instances_active_location_idx (0037).
// SQLite does not count a partial index as covering when the query names the column of its condition
// (`archived_at is null`), so every container cost a visit of the table row; on PostgreSQL the index is covering
// as it is. The same index again with archived_at as its last column: covering on both databases.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index instances_active_location_idx`.execute(db);
  await sql`create index instances_active_location_idx on inventory_item_instances (location_id, item_id, quantity, archived_at) where archived_at is null`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
