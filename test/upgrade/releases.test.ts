// Upgrading a database made by each earlier release (issue 24; docs/upgrading.md says how a release adds its
// fixture). Each folder of test/fixtures/releases/ holds what that release's own `labstock migrate` and `labstock
// demo` made: a SQLite file, a `pg_dump --inserts` of the same on PostgreSQL, and what `demo --json` printed (its
// tokens and ids). This version's `labstock migrate --dry-run` names what it would run and changes nothing; then
// `labstock migrate` runs exactly that, every row of the release survives, and the app serves the release's items,
// labs and order requests with its tokens, each item with every value the release showed (its stored document),
// and renders them in this version's shape until the background rebuild has rewritten them.

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentRebuild } from '../../src/inventory/stored/rebuild.js';
import { countMissingDocuments } from '../../src/inventory/stored/repository.js';
import { buildApp } from '../../src/server/app.js';
import { systemActor } from '../../src/shared/actor.js';
import { loadConfig, parseDatabaseUrl } from '../../src/shared/config.js';
import { type DbHandle, isPostgres, openDatabase } from '../../src/shared/db/database.js';
import { CLI } from '../helpers/cli.js';
import { TEST_ENV } from '../helpers/harness.js';

const run = promisify(execFile);
const RELEASES = path.resolve('test/fixtures/releases');
const target = parseDatabaseUrl(process.env.DATABASE_URL);
const kind = target.kind;

interface Demo {
  token: string;
  organization_id: string;
  legacy_lab_id: string;
  migrated_lab_id: string;
  order_request_ids: Record<string, string>;
}

/** The release's database, opened where this test may change it: a copy of the file, or a database of its own. */
async function openRelease(dir: string): Promise<{ url: string; handle: DbHandle; drop(): Promise<void> }> {
  if (target.kind === 'sqlite') {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-release-'));
    const file = path.join(tmp, 'release.sqlite');
    fs.copyFileSync(path.join(dir, 'release.sqlite'), file);
    const handle = openDatabase({ kind: 'sqlite', file });
    return {
      url: file,
      handle,
      async drop() {
        await handle.close();
        fs.rmSync(tmp, { recursive: true, force: true });
      },
    };
  }
  const name = `release_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(target.url);
  url.pathname = `/${name}`;
  const loader = new pg.Client({ connectionString: url.toString() });
  await loader.connect();
  // psql's meta-commands (\restrict) are not SQL; the rest is the dump's statements as they are.
  const dump = fs.readFileSync(path.join(dir, 'release.pg.sql'), 'utf8');
  await loader.query(
    dump
      .split('\n')
      .filter((line) => !line.startsWith('\\'))
      .join('\n'),
  );
  await loader.end();
  const handle = openDatabase({ kind: 'postgres', url: url.toString() }, { poolSize: 3 });
  return {
    url: url.toString(),
    handle,
    async drop() {
      await handle.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** Every table and its columns: what a dry run must leave as it found it. */
async function schemaOf(handle: DbHandle): Promise<string[]> {
  const rows = isPostgres(handle.db)
    ? (
        await sql<{ t: string; c: string }>`select table_name as t, column_name as c from information_schema.columns
          where table_schema = current_schema() order by 1, 2`.execute(handle.db)
      ).rows
    : (
        await sql<{ t: string; c: string }>`select m.name as t, p.name as c from sqlite_master m, pragma_table_info(m.name) p
          where m.type = 'table' order by 1, 2`.execute(handle.db)
      ).rows;
  return rows.map((r) => `${r.t}.${r.c}`);
}

/** The rows of each table holding data: not Kysely's bookkeeping, nor SQLite's full-text indexes (rebuilt by migrations). */
async function rowCounts(handle: DbHandle): Promise<Record<string, number>> {
  const indexes = isPostgres(handle.db)
    ? []
    : (await sql<{ name: string }>`select name from sqlite_master where sql like 'CREATE VIRTUAL TABLE%'`.execute(handle.db)).rows.map(
        (r) => r.name,
      );
  const tables = [...new Set((await schemaOf(handle)).map((c) => c.split('.')[0]!))].filter(
    (t) => !t.startsWith('kysely_') && !indexes.some((index) => t === index || t.startsWith(`${index}_`)),
  );
  const counts: Record<string, number> = {};
  for (const t of tables)
    counts[t] = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(t)}`.execute(handle.db)).rows[0]!.n);
  return counts;
}

async function cli(url: string, ...args: string[]) {
  const { stdout } = await run(process.execPath, [CLI, ...args, '--json'], { env: { ...process.env, ...TEST_ENV, DATABASE_URL: url } });
  return JSON.parse(stdout);
}

const releases = fs.existsSync(RELEASES) ? fs.readdirSync(RELEASES).sort() : [];

it('keeps a fixture of at least one earlier release', () => {
  expect(releases.length).toBeGreaterThan(0);
});

describe.each(releases)(`upgrading a database made by release %s (${kind})`, (release) => {
  const dir = path.join(RELEASES, release);
  const demo = JSON.parse(fs.readFileSync(path.join(dir, `demo.${kind === 'postgres' ? 'pg' : 'sqlite'}.json`), 'utf8')) as Demo;
  let db: Awaited<ReturnType<typeof openRelease>>;
  let app: FastifyInstance;
  let schemaBefore: string[];
  let countsBefore: Record<string, number>;
  let releaseDocuments: Map<string, Record<string, unknown>>;
  let pending: string[];

  beforeAll(async () => {
    db = await openRelease(dir);
    schemaBefore = await schemaOf(db.handle);
    countsBefore = await rowCounts(db.handle);
    const rows = await sql<{ id: string; rendered: string | null }>`select id, rendered from inventory_items`.execute(db.handle.db);
    releaseDocuments = new Map(rows.rows.filter((r) => r.rendered !== null).map((r) => [r.id, JSON.parse(r.rendered!)]));
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers: { 'access-token': demo.token } });
    expect(res.statusCode, `GET ${url}: ${res.body}`).toBe(200);
    return res;
  };

  it('the release stored a document for each of its items (what it served)', () => {
    expect(releaseDocuments.size).toBe(countsBefore.inventory_items);
    expect(releaseDocuments.size).toBeGreaterThan(0);
  });

  it('`labstock migrate --dry-run` names the migrations it lacks, in order, and changes nothing', async () => {
    const dry = await cli(db.url, 'migrate', '--dry-run');
    pending = dry.pending;
    expect(dry).toMatchObject({ database: kind, dry_run: true });
    expect(pending.length).toBeGreaterThan(0);
    expect(pending).toContain('0030_document_shape');
    expect([...pending].sort()).toEqual(pending);
    expect(await schemaOf(db.handle)).toEqual(schemaBefore);
    expect(await rowCounts(db.handle)).toEqual(countsBefore);
  });

  it('`labstock migrate` runs exactly those; a dry run then has nothing to list', async () => {
    expect((await cli(db.url, 'migrate')).applied).toEqual(pending);
    expect((await cli(db.url, 'migrate', '--dry-run')).pending).toEqual([]);
  });

  it("every row of the release's tables survives", async () => {
    const after = await rowCounts(db.handle);
    for (const [table, n] of Object.entries(countsBefore)) expect(after[table], table).toBe(n);
  });

  it("the app serves the release's labs, items and order requests with its token", async () => {
    const config = loadConfig({ ...TEST_ENV, DATABASE_URL: db.url });
    app = await buildApp({ config, db: db.handle.db });
    await app.ready();
    const labs = (await get('/labs')).json() as { id: string }[];
    expect(labs.map((l) => l.id)).toEqual(expect.arrayContaining([demo.legacy_lab_id, demo.migrated_lab_id]));
    const listed = (await get('/inventory-items?per_page=100')).json() as { id: string }[];
    expect(listed.map((i) => i.id).sort()).toEqual([...releaseDocuments.keys()].sort());
    for (const [id, before] of releaseDocuments) {
      const served = (await get(`/inventory-items/${id}`)).json();
      // Every value the release showed, as it showed it; a field added since is invisible to its clients.
      expect(served, id).toMatchObject(before);
      expect(listed.find((i) => i.id === id)).toEqual(served);
    }
    for (const [status, id] of Object.entries(demo.order_request_ids))
      expect((await get(`/order-requests/${id}`)).json(), status).toMatchObject({ id, status });
  });

  it("the release's documents are of another shape: rewritten by the background rebuild, served the same", async () => {
    const total = await countMissingDocuments(db.handle.db);
    expect(total).toBe(releaseDocuments.size);
    const served = await Promise.all([...releaseDocuments.keys()].map(async (id) => (await get(`/inventory-items/${id}`)).body));
    const silent = { info: () => undefined, error: (o: object) => expect.fail(JSON.stringify(o)) };
    await startDocumentRebuild(db.handle.db, systemActor('server'), TEST_ENV.APP_URL, silent, undefined, { pauseMs: 0 }).finished;
    expect(await countMissingDocuments(db.handle.db)).toBe(0);
    const again = await Promise.all([...releaseDocuments.keys()].map(async (id) => (await get(`/inventory-items/${id}`)).body));
    expect(again).toEqual(served);
  });
});
