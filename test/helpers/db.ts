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

/**
 * A fresh, migrated database for one test file: a temporary SQLite file by default, or a private schema in the
 * PostgreSQL named by DATABASE_URL (so test files run in parallel without seeing each other).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const target = parseDatabaseUrl(process.env.DATABASE_URL);
  if (target.kind === 'postgres') {
    const schema = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: target.url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const handle = openDatabase(target, { pgSchema: schema, poolSize: 5 });
    const dropSchema = async () => {
      const c = new pg.Client({ connectionString: target.url });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    };
    try {
      await migrateToLatest(handle.db);
    } catch (err) {
      await handle.close();
      await dropSchema();
      throw err;
    }
    return {
      handle,
      url: target.url,
      pgSchema: schema,
      async drop() {
        await handle.close();
        await dropSchema();
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
