import { type Kysely, PostgresAdapter, sql } from 'kysely';

// SQLite only: the search rows' ids (their FTS5 rowids) follow the list's order, (created_at, item_id), so that a
// word's matches come out of the full-text index in that order and a page of a common word stops after its rows
// (src/inventory/search/rules.ts searchIdBase: the second of created_at times 2^21, plus the row's rank within the
// second; src/inventory/search/documents/repository.ts keeps it for new rows). Existing rows are renumbered and
// the FTS5 index rebuilt once, now with prefix indexes of 1 to 8 characters: FTS5 answers a longer prefix than
// it indexes by merging every matching term's rows before the first one comes out (q=anti, 4 characters, 110,000
// matches at 1,000,000 items: ~22 ms a statement, against 0.1 ms from a prefix index; the index grows ~85 %,
// docs/performance.md). PostgreSQL's GIN index has no order: nothing changes there.

const IDS_PER_SECOND = 2 ** 21;

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  // Kysely runs SQLite's migrations without a transaction, so this one opens its own.
  if (db.isTransaction) await apply(db);
  else await db.transaction().execute((trx) => apply(trx));
}

async function apply(db: Kysely<any>): Promise<void> {
  for (const trigger of ['inventory_item_search_ai', 'inventory_item_search_ad', 'inventory_item_search_au'])
    await sql`drop trigger ${sql.id(trigger)}`.execute(db);
  await sql`drop table inventory_item_search_fts`.execute(db);
  // created_at is RFC 3339 UTC with milliseconds; strftime('%s') is its whole seconds, as Math.floor(Date.parse / 1000).
  await sql`create temp table search_ids (old_id integer primary key, new_id integer not null)`.execute(db);
  await sql`insert into search_ids (old_id, new_id)
    select id, cast(strftime('%s', created_at) as integer) * ${sql.lit(IDS_PER_SECOND)}
      + row_number() over (partition by strftime('%s', created_at) order by created_at, item_id) - 1
    from inventory_item_search`.execute(db);
  // The new ids (from ~2^51) never meet the old ones (1 up to the number of items).
  await sql`update inventory_item_search set id = search_ids.new_id from search_ids where search_ids.old_id = inventory_item_search.id`.execute(db);
  await sql`drop table search_ids`.execute(db);
  await sql`create virtual table inventory_item_search_fts using fts5(
    item_id unindexed, document, content='inventory_item_search', content_rowid='id',
    tokenize='unicode61 remove_diacritics 0', prefix='1 2 3 4 5 6 7 8')`.execute(db);
  await sql`insert into inventory_item_search_fts (inventory_item_search_fts) values ('rebuild')`.execute(db);
  await sql`create trigger inventory_item_search_ai after insert on inventory_item_search begin
    insert into inventory_item_search_fts (rowid, item_id, document) values (new.id, new.item_id, new.document);
  end`.execute(db);
  await sql`create trigger inventory_item_search_ad after delete on inventory_item_search begin
    insert into inventory_item_search_fts (inventory_item_search_fts, rowid, item_id, document) values ('delete', old.id, old.item_id, old.document);
  end`.execute(db);
  await sql`create trigger inventory_item_search_au after update on inventory_item_search begin
    insert into inventory_item_search_fts (inventory_item_search_fts, rowid, item_id, document) values ('delete', old.id, old.item_id, old.document);
    insert into inventory_item_search_fts (rowid, item_id, document) values (new.id, new.item_id, new.document);
  end`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
