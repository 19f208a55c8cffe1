import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 15: each item's rendered document (exactly what GET /inventory-items/{id} serves) kept in its row, and
// each lab's number of items, so that a read sends stored text and a plain list's X-Total-Count reads one row per lab
// (src/inventory/stored/, docs/decisions/0015-stored-item-documents.md).
//
// Documents are not rendered here: rendering needs the application (src/inventory/render.ts). An item without a
// document is rendered when read, as before, and `labstock serve` (or `labstock admin rebuild`) writes the missing
// ones. The app URL the documents were rendered with is kept so that a new APP_URL drops them.
//
// The counts are kept by triggers, so that every insert and delete of an item counts, whichever code path (or bulk
// load) wrote it: per statement on PostgreSQL (a CSV import of 100,000 rows updates each lab's row once), per row on
// SQLite (which has no statement triggers).

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // In the item's own row: the write that changes an item rewrites its document in the same statement, and a read
  // of a page selects it with the page's ids (a table of its own cost a statement per write and a join per read).
  await db.schema.alterTable('inventory_items').addColumn('rendered', 'text').execute();
  // A person's new name re-renders the items they added or last changed: found by these, not by reading every item.
  await db.schema.createIndex('inventory_items_added_by_idx').on('inventory_items').column('added_by').execute();
  await db.schema.createIndex('inventory_items_updated_by_idx').on('inventory_items').column('updated_by').execute();
  await db.schema
    .createTable('inventory_document_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('app_url', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('inventory_lab_counts')
    .addColumn('lab_id', 'text', (c) => c.primaryKey().references('labs.id'))
    .addColumn('items', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into inventory_lab_counts (lab_id, items) select lab_id, count(*) from inventory_items group by lab_id`.execute(db);
  if (postgres) {
    await sql`create function inventory_lab_counts_added() returns trigger language plpgsql as $$
      begin
        insert into inventory_lab_counts (lab_id, items) select lab_id, count(*) from added group by lab_id
          on conflict (lab_id) do update set items = inventory_lab_counts.items + excluded.items;
        return null;
      end $$`.execute(db);
    await sql`create function inventory_lab_counts_removed() returns trigger language plpgsql as $$
      begin
        update inventory_lab_counts set items = inventory_lab_counts.items - removed_per_lab.n
          from (select lab_id, count(*) as n from removed group by lab_id) as removed_per_lab
          where inventory_lab_counts.lab_id = removed_per_lab.lab_id;
        return null;
      end $$`.execute(db);
    await sql`create trigger inventory_lab_counts_ai after insert on inventory_items
      referencing new table as added for each statement execute function inventory_lab_counts_added()`.execute(db);
    await sql`create trigger inventory_lab_counts_ad after delete on inventory_items
      referencing old table as removed for each statement execute function inventory_lab_counts_removed()`.execute(db);
  } else {
    await sql`create trigger inventory_lab_counts_ai after insert on inventory_items begin
      insert into inventory_lab_counts (lab_id, items) values (new.lab_id, 1)
        on conflict (lab_id) do update set items = items + 1;
    end`.execute(db);
    await sql`create trigger inventory_lab_counts_ad after delete on inventory_items begin
      update inventory_lab_counts set items = items - 1 where lab_id = old.lab_id;
    end`.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
