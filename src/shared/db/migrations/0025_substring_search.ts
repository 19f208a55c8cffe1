import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 23, "Find anything I may see": a search word of 3 characters or more matches anywhere inside the item's
// search document (`ethyl` finds "Dimethyl sulfoxide"), through a trigram index on both databases
// (src/inventory/search/rules.ts, docs/api.md "Searching and filtering inventory items"). Shorter words keep matching
// the start of a word through the word index of migration 0010/0016. The documents themselves do not change (they
// are already folded: lower case, no accents, src/shared/search-text.ts), so only the indexes are built here, over
// every existing row.
//
// - SQLite: an FTS5 table with the `trigram` tokenizer, external content on inventory_item_search with the same
//   rowids (which are in the list's order, migration 0016), kept by its own triggers. The word table is rebuilt with
//   prefix indexes of 1 and 2 characters only, since it now answers only words of 1 or 2 characters: the 3-to-8
//   prefix indexes of 0016 would cost space and every write for nothing.
// - PostgreSQL: the pg_trgm extension (a trusted extension: the database owner may create it) in schema `public`,
//   never in a Labstock schema (a schema dropped with CASCADE would take every other schema's index with it), and a
//   GIN index `gin_trgm_ops` on the document, which `document LIKE '%word%'` uses.

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return postgres(db);
  // Kysely runs SQLite's migrations without a transaction, so this one opens its own.
  if (db.isTransaction) await sqlite(db);
  else await db.transaction().execute((trx) => sqlite(trx));
}

async function postgres(db: Kysely<any>): Promise<void> {
  // Several schemas of one database may migrate at once (tests, staging): CREATE EXTENSION is not safe to race.
  await sql`select pg_advisory_xact_lock(hashtext('labstock: create extension pg_trgm'))`.execute(db);
  await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_catalog.pg_extension e join pg_catalog.pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  const schema = rows[0]?.schema ?? 'public';
  await sql`create index inventory_item_search_trgm_idx on inventory_item_search
    using gin (document ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
}

const TRIGGERS = ['ai', 'ad', 'au'] as const;

async function sqlite(db: Kysely<any>): Promise<void> {
  for (const t of TRIGGERS) await sql`drop trigger ${sql.id(`inventory_item_search_${t}`)}`.execute(db);
  await sql`drop table inventory_item_search_fts`.execute(db);
  await sql`create virtual table inventory_item_search_fts using fts5(
    item_id unindexed, document, content='inventory_item_search', content_rowid='id',
    tokenize='unicode61 remove_diacritics 0', prefix='1 2')`.execute(db);
  await sql`insert into inventory_item_search_fts (inventory_item_search_fts) values ('rebuild')`.execute(db);
  // detail=full (the default): a substring of more than 3 characters is a phrase of consecutive trigrams.
  await sql`create virtual table inventory_item_search_trigram using fts5(
    document, content='inventory_item_search', content_rowid='id', tokenize='trigram')`.execute(db);
  await sql`insert into inventory_item_search_trigram (inventory_item_search_trigram) values ('rebuild')`.execute(db);
  // One set of triggers keeps both tables in step with the documents.
  await sql`create trigger inventory_item_search_ai after insert on inventory_item_search begin
    insert into inventory_item_search_fts (rowid, item_id, document) values (new.id, new.item_id, new.document);
    insert into inventory_item_search_trigram (rowid, document) values (new.id, new.document);
  end`.execute(db);
  await sql`create trigger inventory_item_search_ad after delete on inventory_item_search begin
    insert into inventory_item_search_fts (inventory_item_search_fts, rowid, item_id, document) values ('delete', old.id, old.item_id, old.document);
    insert into inventory_item_search_trigram (inventory_item_search_trigram, rowid, document) values ('delete', old.id, old.document);
  end`.execute(db);
  await sql`create trigger inventory_item_search_au after update on inventory_item_search begin
    insert into inventory_item_search_fts (inventory_item_search_fts, rowid, item_id, document) values ('delete', old.id, old.item_id, old.document);
    insert into inventory_item_search_trigram (inventory_item_search_trigram, rowid, document) values ('delete', old.id, old.document);
    insert into inventory_item_search_fts (rowid, item_id, document) values (new.id, new.item_id, new.document);
    insert into inventory_item_search_trigram (rowid, document) values (new.id, new.document);
  end`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
