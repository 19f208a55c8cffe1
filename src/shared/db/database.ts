import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  type DatabaseIntrospector,
  Kysely,
  type LogEvent,
  type Migration,
  Migrator,
  PostgresAdapter,
  type SqliteDatabase,
  sql,
  type Transaction,
} from 'kysely';
import type { Config } from '../config.js';
import { addDecimals } from '../decimal.js';
import * as m0001 from './migrations/0001_initial.js';
import * as m0002 from './migrations/0002_delivery.js';
import * as m0003 from './migrations/0003_shop.js';
import * as m0004 from './migrations/0004_lab_migration.js';
import * as m0005 from './migrations/0005_item_pages.js';
import * as m0006 from './migrations/0006_location_integrity.js';
import * as m0007 from './migrations/0007_operators.js';
import * as m0008 from './migrations/0008_order_request_checked_out.js';
import * as m0009 from './migrations/0009_sign_in.js';
import * as m0010 from './migrations/0010_inventory_search.js';
import * as m0011 from './migrations/0011_user_links.js';
import * as m0012 from './migrations/0012_sso.js';
import * as m0013 from './migrations/0013_alerts.js';
import * as m0014 from './migrations/0014_approvals.js';
import * as m0015 from './migrations/0015_order_details.js';
import * as m0016 from './migrations/0016_search_order.js';
import * as m0017 from './migrations/0017_item_documents.js';
import * as m0018 from './migrations/0018_sso_accounts.js';
import * as m0019 from './migrations/0019_sso_domains.js';
import * as m0020 from './migrations/0020_delivery_turns.js';
import * as m0023 from './migrations/0023_link_sources_and_attempts.js';
import * as m0025 from './migrations/0025_substring_search.js';
import * as m0028 from './migrations/0028_put_away.js';
import * as m0029 from './migrations/0029_order_receipts.js';
import * as m0030 from './migrations/0030_document_shape.js';
import * as m0031 from './migrations/0031_label_codes.js';
import * as m0032 from './migrations/0032_attachments.js';
import * as m0033 from './migrations/0033_stocktake.js';
import * as m0034 from './migrations/0034_instance_identifiers.js';
import * as m0035 from './migrations/0035_stocktake_items.js';
import * as m0036 from './migrations/0036_hazards.js';
import * as m0037 from './migrations/0037_placement.js';
import * as m0039 from './migrations/0039_controlled_substances.js';
import * as m0042 from './migrations/0042_covering_active_location_index.js';
import * as m0043 from './migrations/0043_location_holdings.js';
import * as m0044 from './migrations/0044_item_page_marks.js';
import * as m0045 from './migrations/0045_location_holdings_version.js';
import { rememberSqliteConnection } from './other-commits.js';
import { DEFAULT_PG_TIMEOUTS, type PgTimeouts, postgresDialect } from './postgres.js';
import type { Database } from './schema.js';
import { ImmediateSqliteDialect } from './sqlite-driver.js';
import { tableWritesPlugin } from './table-writes.js';

export type Db = Kysely<Database>;
/** Repositories take either the database or an open transaction, so services decide transaction scope. */
export type Executor = Kysely<Database> | Transaction<Database>;

export interface DbHandle {
  db: Db;
  kind: 'sqlite' | 'postgres';
  close(): Promise<void>;
}

// Migrations are imported, not discovered on disk, so the compiled binary carries them and tsc checks them.
const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_delivery': m0002,
  '0003_shop': m0003,
  '0004_lab_migration': m0004,
  '0005_item_pages': m0005,
  '0006_location_integrity': m0006,
  '0007_operators': m0007,
  '0008_order_request_checked_out': m0008,
  '0009_sign_in': m0009,
  '0010_inventory_search': m0010,
  '0011_user_links': m0011,
  '0012_sso': m0012,
  '0013_alerts': m0013,
  '0014_approvals': m0014,
  '0015_order_details': m0015,
  '0016_search_order': m0016,
  '0017_item_documents': m0017,
  '0018_sso_accounts': m0018,
  '0019_sso_domains': m0019,
  '0020_delivery_turns': m0020,
  '0023_link_sources_and_attempts': m0023,
  '0025_substring_search': m0025,
  '0028_put_away': m0028,
  '0029_order_receipts': m0029,
  '0030_document_shape': m0030,
  '0031_label_codes': m0031,
  '0032_attachments': m0032,
  '0033_stocktake': m0033,
  '0034_instance_identifiers': m0034,
  '0035_stocktake_items': m0035,
  '0036_hazards': m0036,
  '0037_placement': m0037,
  '0039_controlled_substances': m0039,
  '0042_covering_active_location_index': m0042,
  '0043_location_holdings': m0043,
  '0044_item_page_marks': m0044,
  '0045_location_holdings_version': m0045,
};

/** The migrations this release knows, in order: a database (or a backup) with any other was made by a newer one. */
export const knownMigrations = (): string[] => Object.keys(MIGRATIONS);

/** How many distinct statements stay prepared; the application has a few hundred shapes of query. */
const STATEMENT_CACHE_SIZE = 1000;
/**
 * Statements with more bound parameters are prepared each time: multi-row inserts (outbox, imports, migrations)
 * have a new text for every row count, each prepared statement of them costs ~0.2 MB, and few are ever reused.
 * 100 keeps every page-sized `in (…)` list cached.
 */
const MAX_CACHED_PARAMETERS = 100;

function parameterCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('?'); i !== -1 && n <= MAX_CACHED_PARAMETERS; i = text.indexOf('?', i + 1)) n++;
  return n;
}

/**
 * Kysely's SQLite driver prepares every statement anew, which was a fifth of a simple GET's time (docs/performance.md).
 * Statements are reused by their SQL text, least recently used out first (long multi-row ones are not kept). A
 * statement still being iterated is
 * not handed out twice; SQLite re-prepares a cached statement by itself after a schema change (migrations).
 */
export function cachingStatements(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      const hit = cache.get(text);
      if (hit && !hit.busy) {
        cache.delete(text);
        cache.set(text, hit);
        return hit;
      }
      const statement = sqlite.prepare(text);
      if (!hit && parameterCount(text) <= MAX_CACHED_PARAMETERS) {
        cache.set(text, statement);
        if (cache.size > size) cache.delete(cache.keys().next().value!);
      }
      return statement;
    },
  };
}

export interface OpenOptions {
  /** PostgreSQL schema to use (tests isolate each file in its own schema). */
  pgSchema?: string;
  poolSize?: number;
  /** Called with every SQL statement run (query budgets in tests and benchmarks). */
  onQuery?: (sql: string) => void;
  /** PostgreSQL timeouts (config.databaseTimeouts); DEFAULT_PG_TIMEOUTS when not given. */
  timeouts?: PgTimeouts;
  /** PostgreSQL application_name (default `labstock`, or `labstock/<pgSchema>`). */
  applicationName?: string;
  /** An idle PostgreSQL connection died (the pool has dropped it; the next query opens a new one). */
  onConnectionError?: (err: Error) => void;
  preparedStatements?: boolean; // PostgreSQL, default on: ./prepared-names.ts
}

const queryLog = (options: OpenOptions) =>
  options.onQuery
    ? (event: LogEvent) => {
        if (event.level === 'query') options.onQuery!(event.query.sql);
      }
    : undefined;

export function openDatabase(database: Config['database'], options: OpenOptions = {}): DbHandle {
  if (database.kind === 'sqlite') {
    if (database.file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(database.file)), { recursive: true });
    const sqlite = new SQLite(database.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // Waiting for another connection's write lock happens on timers, not inside SQLite (src/shared/db/sqlite-driver.ts).
    sqlite.pragma('busy_timeout = 0');
    // Exact decimal addition for running totals kept by upserts (src/inventory/holdings-repository.ts): SQLite
    // would add the text as floating point. PostgreSQL adds numerics itself.
    sqlite.function('labstock_dec_add', { deterministic: true }, (a: unknown, b: unknown) => addDecimals(String(a), String(b)));
    const db = new Kysely<Database>({
      dialect: new ImmediateSqliteDialect(cachingStatements(sqlite), sqlite),
      log: queryLog(options),
      plugins: [tableWritesPlugin],
    });
    rememberSqliteConnection(db, sqlite);
    return { db, kind: 'sqlite', close: () => db.destroy() };
  }
  const dialect = postgresDialect({
    url: database.url,
    max: options.poolSize ?? 10,
    prepare: options.preparedStatements ?? true,
    timeouts: options.timeouts ?? DEFAULT_PG_TIMEOUTS,
    ...(options.pgSchema ? { pgSchema: options.pgSchema } : {}),
    ...(options.applicationName ? { applicationName: options.applicationName } : {}),
    ...(options.onConnectionError ? { onError: options.onConnectionError } : {}),
  });
  const db = new Kysely<Database>({ dialect, log: queryLog(options), plugins: [tableWritesPlugin] });
  return { db, kind: 'postgres', close: () => db.destroy() };
}

/** Whether queries on this executor go to PostgreSQL (row locks, NOTIFY and schema lookups only exist there). */
export const isPostgres = (ex: Executor): boolean => ex.getExecutor().adapter instanceof PostgresAdapter;

async function migratorOf(db: Db): Promise<Migrator> {
  // Kysely looks for its bookkeeping tables in every schema; pin it to the one this connection works in, or a
  // database holding several Labstock schemas (tests, staging) would see another schema's tables.
  const schema = isPostgres(db) ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
  return new Migrator({
    db: schema ? introspectingOnly(db, schema) : db,
    provider: { getMigrations: async () => MIGRATIONS },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results } = await (await migratorOf(db)).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The migrations migrateToLatest would run, in order; reads only (Kysely creates its tables when it migrates). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  return (await (await migratorOf(db)).getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/**
 * `db`, whose introspection sees only `schema`'s tables. Kysely's PostgreSQL introspector lists every schema's
 * columns and calls has_schema_privilege(name) on each row, which fails ("schema … does not exist") when another
 * schema of the same database is dropped meanwhile (test files running in parallel, a staging copy removed).
 * The Migrator only needs to know whether its two tables exist here. A Proxy, because Kysely builds the
 * introspector from its private dialect; everything else goes to `db` itself.
 */
function introspectingOnly(db: Db, schema: string): Db {
  const tables = async () => {
    const { rows } = await sql<{ name: string }>`
      select c.relname as name from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schema} and c.relkind in ('r', 'p')`.execute(db);
    return rows.map((r) => ({ name: r.name, schema, isView: false, columns: [] }));
  };
  const introspection: DatabaseIntrospector = {
    getSchemas: () => db.introspection.getSchemas(),
    getTables: tables,
    getMetadata: async () => ({ tables: await tables() }),
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'introspection') return introspection;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

// What a database error means to a caller (unique violation, transient conflict, unavailable): ./db-errors.ts.
export { isDatabaseUnavailable, isTransientConflict, isUniqueViolation } from './db-errors.js';
