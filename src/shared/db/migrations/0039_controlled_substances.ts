import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Controlled substances (docs/controlled-substances.md, docs/product.md §14), owned by src/controlled/:
//
// - controlled_items: which items are controlled, with their schedule (free text: "DEA Schedule II", "UK Class B").
//   Unmarking deletes the row; the ledger keeps what happened (a closing entry). item_id carries no foreign key:
//   a controlled item cannot be deleted (src/controlled/ledger.ts assertDeletable), and an unmarked one's ledger
//   outlives it.
// - controlled_ledger: append-only. One row per use, receipt, move, disposal, count, correction, opening (marked)
//   and closing (unmarked); `seq` numbers an item's entries (unique: two writers of one item cannot both append
//   entry n); `change` is the signed effect on the balance, `balance` the running balance after it. A correction
//   names the entry it corrects (corrects_id).
// - controlled_witnesses: the second person's confirmation of an entry, appended rather than written onto the entry,
//   so the ledger rows themselves never change.
// Both ledger tables refuse UPDATE and DELETE with a trigger on both engines: no code path, and no hand-typed SQL
// through the application's connection, can edit or remove an entry.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const text = 'text';
  await db.schema
    .createTable('controlled_items')
    .addColumn('item_id', text, (c) => c.primaryKey())
    .addColumn('lab_id', text, (c) => c.notNull().references('labs.id'))
    .addColumn('schedule', text, (c) => c.notNull())
    .addColumn('marked_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('marked_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('controlled_items_lab_idx').on('controlled_items').columns(['lab_id']).execute();
  await db.schema
    .createTable('controlled_ledger')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('lab_id', text, (c) => c.notNull().references('labs.id'))
    .addColumn('item_id', text, (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('amount', text, (c) => c.notNull())
    .addColumn('change', text, (c) => c.notNull())
    .addColumn('balance', text, (c) => c.notNull())
    .addColumn('instance_id', text)
    .addColumn('from_location_id', text)
    .addColumn('to_location_id', text)
    .addColumn('corrects_id', text, (c) => c.references('controlled_ledger.id'))
    .addColumn('source', text, (c) => c.notNull())
    .addColumn('note', text)
    .addColumn('created_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('created_at', text, (c) => c.notNull())
    .addUniqueConstraint('controlled_ledger_item_seq', ['item_id', 'seq'])
    .execute();
  await db.schema.createIndex('controlled_ledger_lab_idx').on('controlled_ledger').columns(['lab_id', 'created_at']).execute();
  await db.schema
    .createTable('controlled_witnesses')
    .addColumn('entry_id', text, (c) => c.primaryKey().references('controlled_ledger.id'))
    .addColumn('witnessed_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('witnessed_at', text, (c) => c.notNull())
    .execute();
  for (const table of ['controlled_ledger', 'controlled_witnesses']) {
    if (postgres) {
      await sql`create function ${sql.id(`${table}_append_only`)}() returns trigger language plpgsql as $$
        begin raise exception '${sql.raw(table)} is append-only: write a correction instead'; end $$`.execute(db);
      await sql`create trigger ${sql.id(`${table}_no_change`)} before update or delete on ${sql.table(table)}
        for each row execute function ${sql.id(`${table}_append_only`)}()`.execute(db);
    } else {
      for (const op of ['update', 'delete'])
        await sql`create trigger ${sql.id(`${table}_no_${op}`)} before ${sql.raw(op)} on ${sql.table(table)}
          begin select raise(abort, '${sql.raw(table)} is append-only: write a correction instead'); end`.execute(db);
    }
  }
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
