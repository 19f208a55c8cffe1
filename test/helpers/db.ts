import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { parseDatabaseUrl } from '../../src/shared/config.js';
import { type DbHandle, migrateToLatest, openDatabase } from '../../src/shared/db/database.js';

export interface TestDatabase {
  handle: DbHandle;
  /** The DATABASE_URL a child process (the CLI) would use to reach the same data. */
  url: string;
  pgSchema?: string;
  drop(): Promise<void>;
}

// Kysely's bookkeeping: the schema's migration state, kept when a schema is emptied for the next file.
const BOOKKEEPING = ['kysely_migration', 'kysely_migration_lock'];

/**
 * What a schema is made of (tables, columns, indexes, constraints, triggers, functions), as one hash: a schema is
 * emptied and reused only while it still matches a freshly migrated one, so a test that altered it (dropped a
 * column, renamed a table, removed an index) never hands its change to the next file.
 */
const SHAPE = `
  select md5(coalesce(string_agg(part, '|' order by part), '')) as shape from (
    select c.relname || ':' || c.relkind::text || ':' || coalesce((
      select string_agg(a.attname || ' ' || a.atttypid::text || ' ' || a.attnotnull::text || ' ' || a.attnum, ',' order by a.attnum)
      from pg_catalog.pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '') as part
    from pg_catalog.pg_class c where c.relnamespace = $1::regnamespace
    union all select 'con:' || conname || ':' || pg_catalog.pg_get_constraintdef(oid) from pg_catalog.pg_constraint
      where connamespace = $1::regnamespace
    union all select 'trg:' || t.tgname || ':' || t.tgenabled::text from pg_catalog.pg_trigger t
      join pg_catalog.pg_class c on c.oid = t.tgrelid where c.relnamespace = $1::regnamespace
    union all select 'fn:' || proname || ':' || md5(prosrc) from pg_catalog.pg_proc where pronamespace = $1::regnamespace
  ) parts`;

/** Per worker (vitest.config.ts runs files without isolation): emptied schemas waiting for the next file. */
const spare: string[] = [];
let migratedShape: string | undefined;

async function withAdmin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const shapeOf = async (client: pg.Client, schema: string) => (await client.query(SHAPE, [schema])).rows[0].shape as string;

/**
 * Empties `schema` for the next file when it still has a freshly migrated schema's shape and migration state, and
 * says whether it did. One query finds the tables holding rows; the small ones are emptied with DELETE and foreign
 * keys unchecked (the PostgreSQL server's CPU, measured per file: ~10 ms, where TRUNCATE of ~15 tables took 100 to
 * 200 ms and a new schema's migration ~240 ms), the large ones (bulk imports) with TRUNCATE, and sequences restart.
 */
async function emptyForReuse(client: pg.Client, schema: string): Promise<boolean> {
  if (!migratedShape || (await shapeOf(client, schema)) !== migratedShape) return false;
  const q = (t: string) => `"${schema}"."${t}"`;
  const { rows: migrations } = await client.query<{ n: string }>(`select count(*) as n from ${q('kysely_migration')}`);
  if (Number(migrations[0]?.n) !== migrationCount) return false;
  const { rows: tables } = await client.query<{ name: string }>(
    `select c.relname as name from pg_catalog.pg_class c where c.relnamespace = $1::regnamespace and c.relkind = 'r'`,
    [schema],
  );
  const probe = tables
    .filter((t) => !BOOKKEEPING.includes(t.name))
    .map((t) => `select '${t.name}' as name, (select count(*) from (select 1 from ${q(t.name)} limit ${LARGE}) r) as n`)
    .join(' union all ');
  const { rows: filled } = await client.query<{ name: string; n: string }>(`select * from (${probe}) p where n > 0`);
  const large = filled.filter((t) => Number(t.n) >= LARGE).map((t) => q(t.name));
  const small = filled.filter((t) => Number(t.n) < LARGE).map((t) => `delete from ${q(t.name)}`);
  try {
    // 'replica' skips the foreign-key triggers, so the tables empty in any order (a superuser setting: elsewhere
    // this throws and the schema is dropped as before).
    if (small.length) await client.query(`set session_replication_role = replica; ${small.join('; ')}; reset session_replication_role`);
    if (large.length) await client.query(`truncate ${large.join(', ')} cascade`);
    await client.query(
      `select pg_catalog.setval(s.seqrelid::regclass, s.seqstart, false) from pg_catalog.pg_sequence s
       join pg_catalog.pg_class c on c.oid = s.seqrelid where c.relnamespace = $1::regnamespace`,
      [schema],
    );
  } catch {
    return false;
  }
  return true;
}
// A table with this many rows is truncated rather than deleted from: its dead rows would slow the next file.
const LARGE = 1000;
// Deleted rows stay as dead tuples until a vacuum (autovacuum is off on the CI cluster): a schema serves this many
// files at most, then it is dropped and the worker's next file migrates a new one.
const MAX_USES = 20;
const uses = new Map<string, number>();
let migrationCount = -1;

/**
 * A fresh, migrated database for one test file: a temporary SQLite file by default, or a private schema in the
 * PostgreSQL named by DATABASE_URL (so test files run in parallel without seeing each other).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const target = parseDatabaseUrl(process.env.DATABASE_URL);
  if (target.kind === 'postgres') {
    // Creating and migrating a schema cost each test file ~0.25 s of the PostgreSQL server's CPU and ~0.1 s of the
    // worker's (docs/decisions/0019-reused-test-schemas.md); an emptied one from this worker's last file costs a few
    // milliseconds. Schemas are named after the run (test/global-setup.ts), which drops them at its end.
    const prefix = inject('pgSchemaPrefix') ?? 't';
    // LABSTOCK_TEST_FRESH_SCHEMAS=1 creates and drops a schema per file as before (to rule reuse out when in doubt).
    const reused = process.env.LABSTOCK_TEST_FRESH_SCHEMAS === '1' ? undefined : spare.pop();
    const schema = reused ?? `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    if (!reused) await withAdmin(target.url, (c) => c.query(`CREATE SCHEMA ${schema}`));
    const handle = openDatabase(target, { pgSchema: schema, poolSize: 5 });
    const dropSchema = () => withAdmin(target.url, (c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    if (!reused) {
      try {
        const applied = await migrateToLatest(handle.db);
        if (!migratedShape) {
          migratedShape = await withAdmin(target.url, (c) => shapeOf(c, schema));
          migrationCount = applied.length;
        }
      } catch (err) {
        await handle.close();
        await dropSchema();
        throw err;
      }
    }
    return {
      handle,
      url: target.url,
      pgSchema: schema,
      async drop() {
        await handle.close();
        const used = (uses.get(schema) ?? 0) + 1;
        uses.set(schema, used);
        // Only a schema whose connections are all closed is reused: a leftover session could write into the next file's.
        const kept =
          used < MAX_USES &&
          (await withAdmin(target.url, async (c) => {
            const { rows } = await c.query('select count(*) as n from pg_stat_activity where application_name like $1', [
              `labstock/%${schema}`,
            ]);
            return Number(rows[0].n) === 0 && (await emptyForReuse(c, schema));
          }));
        if (kept) spare.push(schema);
        else await dropSchema();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-test-'));
  const file = path.join(dir, 'test.sqlite');
  // A copy of the schema migrated once for the project (test/global-setup.ts); migrated here when there is none.
  const template = inject('sqliteTemplate');
  if (template) fs.copyFileSync(template, file);
  const handle = openDatabase({ kind: 'sqlite', file });
  if (!template) await migrateToLatest(handle.db);
  return {
    handle,
    url: file,
    async drop() {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
