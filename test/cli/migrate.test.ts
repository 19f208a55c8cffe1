// `labstock migrate --dry-run` (src/cli/migrate.ts) on a database with nothing in it: it names every migration, in
// order, and creates nothing (not even the migrations' own bookkeeping); `labstock migrate` then applies that list.
// From a release's database: test/upgrade/releases.test.ts.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../src/shared/config.js';
import { cliJson } from '../helpers/cli.js';
import { TEST_ENV } from '../helpers/harness.js';

const target = parseDatabaseUrl(process.env.DATABASE_URL);
let env: NodeJS.ProcessEnv;
let tables: () => Promise<string[]>;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  if (target.kind === 'postgres') {
    const schema = `t_empty_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: target.url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const options = encodeURIComponent(`-c search_path=${schema}`);
    env = { ...process.env, ...TEST_ENV, DATABASE_URL: `${target.url}${target.url.includes('?') ? '&' : '?'}options=${options}` };
    tables = async () =>
      (await admin.query<{ t: string }>('select table_name as t from information_schema.tables where table_schema = $1', [schema])).rows
        .map((r) => r.t)
        .sort();
    cleanup = async () => {
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    };
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-migrate-'));
  const file = path.join(dir, 'empty.sqlite');
  env = { ...process.env, ...TEST_ENV, DATABASE_URL: file };
  tables = async () => {
    if (!fs.existsSync(file)) return [];
    const db = new SQLite(file, { readonly: true });
    try {
      return (db.prepare("select name from sqlite_master where type = 'table' order by name").all() as { name: string }[]).map(
        (r) => r.name,
      );
    } finally {
      db.close();
    }
  };
  cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
});
afterAll(() => cleanup?.());

describe('labstock migrate --dry-run on an empty database', () => {
  it('lists every migration in order and creates no table; migrate applies exactly that list', async () => {
    const dry = await cliJson(env, 'migrate', '--dry-run');
    expect(dry).toMatchObject({ database: target.kind, dry_run: true });
    expect(dry.pending[0]).toBe('0001_initial');
    expect(dry.pending).toContain('0030_document_shape');
    expect([...dry.pending].sort()).toEqual(dry.pending);
    expect(await tables()).toEqual([]);

    expect((await cliJson(env, 'migrate')).applied).toEqual(dry.pending);
    expect(await tables()).toContain('inventory_items');
    expect(await cliJson(env, 'migrate', '--dry-run')).toMatchObject({ pending: [] });
  });
});
