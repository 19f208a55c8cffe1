import { type Kysely, sql } from 'kysely';

// The control-area meter and the limit check (issue 26 bench, docs/performance.md "Control-area meter at 1,000,000
// instances") read a control area's active containers per item through instances_active_location_idx (0037).
// SQLite does not count a partial index as covering when the query names the column of its condition
// (`archived_at is null`), so every container cost a visit of the table row; on PostgreSQL the index is covering
// as it is. The same index again with archived_at as its last column: covering on both databases. The area's
// items are then looked up by id for their unit size and type, and their hazard sets by item and by type
// (src/inventory/placement-repository.ts heldGroupsAt): three covering indexes spare a visit of each row.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index instances_active_location_idx`.execute(db);
  await sql`create index instances_active_location_idx on inventory_item_instances (location_id, item_id, quantity, archived_at) where archived_at is null`.execute(
    db,
  );
  await sql`create index inventory_items_profile_idx on inventory_items (id, unit_size, type_id)`.execute(db);
  await sql`create index hazard_sets_item_cover_idx on hazard_sets (item_id, id)`.execute(db);
  await sql`create index hazard_sets_type_cover_idx on hazard_sets (type_id, id)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
