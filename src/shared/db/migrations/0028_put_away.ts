import { type Kysely, sql } from 'kysely';

// Issue 23, put-away (docs/product.md §14): an instance received without a lot, an expiry or a location waits on its
// lab's put-away list until a person fills them in or confirms it has none (src/inventory/put-away.ts).
//
// - inventory_item_instances.put_away_due_at: when such an instance arrived; null when nothing is due. Null is the
//   default, so every other way an instance is made (by hand, item creation, CSV import, a lab's migration) leaves
//   nothing to put away, and so do the instances that existed before: nothing recorded which of them came from a
//   receipt (an item a receipt created has no history line for its instance), and listing every incomplete one would
//   list a migrated lab's whole legacy stock.
// - a partial index over the few that are due: the list and its count read only those.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('inventory_item_instances').addColumn('put_away_due_at', 'text').execute();
  await sql`create index instances_put_away_idx on inventory_item_instances (put_away_due_at, id) where put_away_due_at is not null`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
