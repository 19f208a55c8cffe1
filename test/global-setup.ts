import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { parseDatabaseUrl } from '../src/shared/config.js';
import { migrateToLatest, openDatabase } from '../src/shared/db/database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated SQLite file that each test file's database starts as a copy of (test/helpers/db.ts). */
    sqliteTemplate: string;
    /** The start of this run's PostgreSQL test schema names (test/helpers/db.ts), dropped when the run ends. */
    pgSchemaPrefix: string;
  }
}

// The catalog tables that creating and dropping a schema of ~45 tables writes to.
const CATALOGS = ['pg_attribute', 'pg_class', 'pg_depend', 'pg_type', 'pg_index', 'pg_constraint', 'pg_attrdef', 'pg_trigger'];

// vitest.config.ts's globalSetup, before the test files of each project that opens databases (three at most a run).
export async function setup(project: TestProject): Promise<(() => void) | undefined> {
  // A project's own `env` (vitest.config.ts: the PostgreSQL copies that `.ci/run` adds) reaches its workers, not
  // this process: read it from the project.
  const target = parseDatabaseUrl(project.config.env?.DATABASE_URL ?? process.env.DATABASE_URL);
  if (target.kind === 'postgres') {
    // Each test file creates and drops a schema (test/helpers/db.ts): ~300 per run leave ~500,000 dead catalog
    // rows. Where autovacuum is off (as on the CI machine's cluster) they pile up run after run, and a schema's
    // creation took 200 to 260 ms after a few runs instead of ~105 ms. Compacting the catalogs first takes well
    // under a second and makes every run start from the same place. It locks them briefly: a run sharing this
    // database waits that long.
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      await client.query(`VACUUM FULL ${CATALOGS.map((t) => `pg_catalog.${t}`).join(', ')}`);
    } finally {
      await client.end();
    }
    // Each worker keeps its emptied schemas for its next file (test/helpers/db.ts): the ones still kept when the run
    // ends are dropped here, by the name this run (and project) gave them; other runs sharing the database keep theirs.
    const prefix = `t_${project.name.replace(/[^a-z]/g, '').slice(0, 6)}_${process.pid.toString(36)}${Date.now().toString(36)}`;
    project.provide('pgSchemaPrefix', prefix);
    return async () => {
      const c = new pg.Client({ connectionString: target.url });
      await c.connect();
      try {
        const { rows } = await c.query<{ name: string }>('select nspname as name from pg_catalog.pg_namespace where nspname like $1', [
          `${prefix}\\_%`,
        ]);
        for (const { name } of rows) await c.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      } finally {
        await c.end();
      }
    };
  }
  // On SQLite the schema is migrated once per project instead of once per test file (16 to 40 ms each, against
  // ~1 ms for a copy). Closing the handle checkpoints the WAL into the file, so a copy of the file alone is whole.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-template-'));
  const file = path.join(dir, 'migrated.sqlite');
  const handle = openDatabase({ kind: 'sqlite', file });
  await migrateToLatest(handle.db);
  await handle.close();
  project.provide('sqliteTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
