import type { Kysely } from 'kysely';

// A lab's migration from legacy fields to instances (src/lab-migration/service.ts): when it started (and by whom), how far
// it got (a keyset cursor over the lab's items in (created_at, id) order, advanced in each batch's transaction, so
// a killed process resumes exactly after the last committed batch), and when it finished. All null until a
// migration starts; a lab created with instances never has one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('labs').addColumn('migration_started_at', 'text').execute();
  await db.schema.alterTable('labs').addColumn('migration_started_by', 'text').execute();
  await db.schema.alterTable('labs').addColumn('migration_updated_at', 'text').execute();
  await db.schema.alterTable('labs').addColumn('migration_finished_at', 'text').execute();
  await db.schema.alterTable('labs').addColumn('migration_items_total', 'integer').execute();
  await db.schema.alterTable('labs').addColumn('migration_items_done', 'integer').execute();
  await db.schema.alterTable('labs').addColumn('migration_cursor_created_at', 'text').execute();
  await db.schema.alterTable('labs').addColumn('migration_cursor_id', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
