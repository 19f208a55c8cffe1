import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../src/shared/config.js';
import { CLI, cliFailure } from '../helpers/cli.js';
import { TEST_ENV } from '../helpers/harness.js';

// `labstock admin backup` on PostgreSQL (pg_dump) while `labstock serve` takes writes, and the restore recipe of
// docs/deploy.md (pg_restore, then labstock migrate) into a fresh database: one consistent moment of the live database,
// and a backup of the quiet database restores to the same rows in every table. Each database here is its own (a
// pg_dump archive names its schema, so the per-file test schemas of test/helpers/db.ts cannot be restored elsewhere).

const run = promisify(execFile);
const target = parseDatabaseUrl(process.env.DATABASE_URL);
const onPostgres = target.kind === 'postgres';
const suffix = `${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
const names = { live: `lsbk_live_${suffix}`, restored: `lsbk_restored_${suffix}`, quiet: `lsbk_quiet_${suffix}` };

const urlOf = (database: string) => {
  const url = new URL(target.kind === 'postgres' ? target.url : 'postgres://x');
  url.pathname = `/${database}`;
  return url.toString();
};
const env = (database: string) => ({ ...process.env, ...TEST_ENV, DATABASE_URL: urlOf(database) });
const cli = async (database: string, ...args: string[]) =>
  JSON.parse((await run(process.execPath, [CLI, ...args, '--json'], { env: env(database) })).stdout);

async function withClient<T>(database: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: urlOf(database) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Row count and an md5 of the sorted rows of every table of the public schema. */
const fingerprint = (database: string) =>
  withClient(database, async (c) => {
    const tables = (await c.query<{ t: string }>("select tablename as t from pg_tables where schemaname = 'public' order by 1")).rows;
    const out: Record<string, string> = {};
    for (const { t } of tables) {
      const { rows } = await c.query<{ n: string; h: string }>(
        `select count(*) as n, md5(coalesce(string_agg(r::text, E'\\n' order by r::text), '')) as h from public."${t}" r`,
      );
      out[t] = `${rows[0]!.n} ${rows[0]!.h}`;
    }
    return out;
  });

const restore = (archive: string, database: string) =>
  run('pg_restore', ['--clean', '--if-exists', '--no-owner', `--dbname=${urlOf(database)}`, archive]);

describe.skipIf(!onPostgres)('labstock admin backup on PostgreSQL', () => {
  let dir: string;
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-pg-backup-'));
    await withClient('postgres', async (c) => {
      for (const name of Object.values(names)) await c.query(`create database ${name}`);
    });
  });
  afterAll(async () => {
    if (server && server.exitCode === null) server.kill('SIGKILL');
    await withClient('postgres', async (c) => {
      for (const name of Object.values(names)) await c.query(`drop database if exists ${name} with (force)`);
    });
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('backs up under a write load; the restore is one moment of it, and a quiet backup restores to the same rows', async () => {
    await cli(names.live, 'migrate');
    const demo = await cli(names.live, 'demo');
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    server = spawn(process.execPath, [CLI, 'serve'], {
      env: { ...env(names.live), PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const lines: string[] = [];
    readline.createInterface({ input: server.stdout! }).on('line', (l) => lines.push(l));
    while (!lines.some((l) => l.includes('Labstock listening')) && server.exitCode === null) await new Promise((r) => setTimeout(r, 100));

    const created: string[] = [];
    let stop = false;
    const load = (async () => {
      for (let i = 0; !stop; i++) {
        const res = await fetch(`http://127.0.0.1:${port}/inventory-items`, {
          method: 'POST',
          headers: { 'access-token': demo.token, 'content-type': 'application/json' },
          body: JSON.stringify({ lab_id: demo.legacy_lab_id, name: `Load ${i}`, quantity: '1' }),
        });
        expect(res.status, await res.clone().text()).toBe(201);
        created.push(((await res.json()) as { id: string }).id);
      }
    })();
    while (created.length < 20) await new Promise((r) => setTimeout(r, 20));
    const before = created.length;
    const archive = path.join(dir, 'under-load.dump');
    const backup = await cli(names.live, 'admin', 'backup', '--file', archive).finally(() => {
      stop = true;
    });
    await load;
    expect(backup).toMatchObject({ database: 'postgres', file: archive });
    expect(await cli(names.restored, 'admin', 'restore', '--check', '--file', archive)).toMatchObject({ database: 'postgres' });
    const refusal = await cliFailure(env(names.restored), 'admin', 'restore', '--file', archive);
    expect(refusal).toContain('pg_restore --clean --if-exists --no-owner');

    await restore(archive, names.restored);
    await cli(names.restored, 'migrate');
    const items = await withClient(names.restored, async (c) =>
      (await c.query<{ id: string }>("select id from inventory_items where name like 'Load %'")).rows.map((r) => r.id),
    );
    expect(items.length).toBeGreaterThanOrEqual(before);
    expect(new Set(items)).toEqual(new Set(created.slice(0, items.length)));
    const events = await withClient(
      names.restored,
      async (c) =>
        (await c.query<{ payload: string }>("select payload::text as payload from events where type like '%inventory_item.created'")).rows,
    );
    for (const id of items)
      expect(
        events.some((e) => e.payload.includes(id)),
        id,
      ).toBe(true);

    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
    const quiet = path.join(dir, 'quiet.dump');
    await cli(names.live, 'admin', 'backup', '--file', quiet);
    await restore(quiet, names.quiet);
    expect(await fingerprint(names.quiet)).toEqual(await fingerprint(names.live));
  });
});
