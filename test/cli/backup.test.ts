import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../src/shared/config.js';
import { CLI, cliFailure } from '../helpers/cli.js';
import { type Harness, startHarness, TEST_ENV } from '../helpers/harness.js';

// `labstock admin backup` while the service writes, and `labstock admin restore` into a fresh database
// (docs/deploy.md, Backups): the restored database is the backup, table by table and row by row, event log included;
// the backup is one consistent moment of the live one; and a backup of a quiet database is identical to it.

const run = promisify(execFile);
const onPostgres = parseDatabaseUrl(process.env.DATABASE_URL).kind === 'postgres';

/** Row count and a SHA-256 of the sorted rows of every table (FTS shadow tables and migration bookkeeping included). */
function fingerprint(file: string): Record<string, { rows: number; sha256: string }> {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const tables = (
      db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").all() as {
        name: string;
      }[]
    ).map((t) => t.name);
    return Object.fromEntries(
      tables.map((name) => {
        const rows = db
          .prepare(`select * from "${name}"`)
          .raw()
          .all()
          .map((r) => JSON.stringify(r, (_k, v) => (Buffer.isBuffer(v) ? v.toString('base64') : v)))
          .sort();
        return [name, { rows: rows.length, sha256: createHash('sha256').update(rows.join('\n')).digest('hex') }];
      }),
    );
  } finally {
    db.close();
  }
}

const column = (file: string, query: string): string[] => {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(query).pluck().all() as string[];
  } finally {
    db.close();
  }
};

describe.skipIf(onPostgres)('labstock admin backup and restore (SQLite)', () => {
  let h: Harness;
  let dir: string;
  const env = (databaseUrl: string) => ({ ...process.env, ...TEST_ENV, DATABASE_URL: databaseUrl });
  const cli = async (databaseUrl: string, ...args: string[]) =>
    JSON.parse((await run(process.execPath, [CLI, ...args, '--json'], { env: env(databaseUrl) })).stdout);

  beforeAll(async () => {
    h = await startHarness();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-backup-'));
  });
  afterAll(async () => {
    await h?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('backs up under a write load and restores into a fresh database: the same inventory and event log', async () => {
    const created: string[] = [];
    let stop = false;
    // The load: items created one after another through the API, each followed by a change of its quantity.
    const load = (async () => {
      for (let i = 0; !stop; i++) {
        const res = await h.call(h.a.admin.token, {
          method: 'POST',
          url: '/inventory-items',
          payload: { lab_id: h.a.legacyLab.id, name: `Load ${i}`, quantity: '1' },
        });
        expect(res.statusCode, res.body).toBe(201);
        const id = res.json().id as string;
        const put = await h.call(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${id}`, payload: { quantity: '2' } });
        expect(put.statusCode, put.body).toBe(200);
        created.push(id);
      }
    })();
    while (created.length < 20) await new Promise((r) => setImmediate(r));
    const before = created.length;
    const backupFile = path.join(dir, 'under-load.sqlite');
    const backup = await cli(h.database.url, 'admin', 'backup', '--file', backupFile).finally(() => {
      stop = true;
    });
    await load;
    expect(created.length).toBeGreaterThan(before);
    expect(backup).toMatchObject({ database: 'sqlite', file: backupFile, organizations: 2 });

    const restoredFile = path.join(dir, 'restored', 'labstock.sqlite');
    const restored = await cli(restoredFile, 'admin', 'restore', '--file', backupFile);
    expect(restored).toMatchObject({ restored_to: restoredFile, organizations: 2 });
    const [inBackup, inRestored] = [fingerprint(backupFile), fingerprint(restoredFile)];
    expect(Object.keys(inBackup)).toContain('events');
    expect(inRestored).toEqual(inBackup);

    // One moment of the live database: the load's items up to some point, none missing before it, each with its
    // quantity change, and each with its events.
    const items = new Set(column(restoredFile, "select id from inventory_items where name like 'Load %'"));
    expect(items.size).toBeGreaterThanOrEqual(before);
    expect(created.slice(0, items.size).every((id) => items.has(id))).toBe(true);
    // The backup may fall between the newest item's create and its quantity change (two requests): only that one
    // may still hold its first quantity, with its created event alone.
    const rows = column(
      restoredFile,
      "select substr(name, 6) || ' ' || quantity || ' ' || id from inventory_items where name like 'Load %'",
    )
      .map((r) => String(r).split(' '))
      .map(([n, quantity, id]) => ({ n: Number(n), quantity, id: id! }))
      .sort((a, b) => a.n - b.n);
    const newest = rows.at(-1)!;
    expect(rows.slice(0, -1).every((r) => r.quantity === '2')).toBe(true);
    expect(['1', '2']).toContain(newest.quantity);
    const events = column(restoredFile, "select payload from events where type like '%inventory_item.%'");
    for (const r of rows) {
      const expected = r === newest && newest.quantity === '1' ? 1 : 2;
      expect(events.filter((p) => p.includes(r.id)).length, r.id).toBeGreaterThanOrEqual(expected);
    }

    // With the load stopped, a backup is the live database itself.
    const quietFile = path.join(dir, 'quiet.sqlite');
    await cli(h.database.url, 'admin', 'backup', '--file', quietFile);
    expect(fingerprint(quietFile)).toEqual(fingerprint(h.database.url));
  });

  it('refuses to overwrite a database in use without --force, and replaces it with --force', async () => {
    const backupFile = path.join(dir, 'for-force.sqlite');
    await cli(h.database.url, 'admin', 'backup', '--file', backupFile);
    const target = path.join(dir, 'in-use.sqlite');
    await cli(target, 'admin', 'org', 'create', '--name', 'Someone else');
    const refusal = await cliFailure(env(target), 'admin', 'restore', '--file', backupFile);
    expect(refusal).toContain('not empty');
    expect(refusal).toContain('--force');
    expect(column(target, 'select name from organizations')).toEqual(['Someone else']);
    await cli(target, 'admin', 'restore', '--file', backupFile, '--force');
    expect(fingerprint(target)).toEqual(fingerprint(backupFile));
  });

  it('refuses a file that is not a Labstock backup, and one made by a newer release, which it does not run on either', async () => {
    const text = path.join(dir, 'notes.txt');
    fs.writeFileSync(text, 'not a database');
    const target = path.join(dir, 'empty.sqlite');
    expect(await cliFailure(env(target), 'admin', 'restore', '--file', text)).toContain('not a SQLite database');

    const other = path.join(dir, 'other.sqlite');
    new SQLite(other).exec('create table notes (body text)');
    expect(await cliFailure(env(target), 'admin', 'restore', '--file', other)).toContain('not a Labstock one');

    const newer = path.join(dir, 'newer.sqlite');
    await cli(h.database.url, 'admin', 'backup', '--file', newer);
    const db = new SQLite(newer);
    db.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run('9999_from_the_future', new Date().toISOString());
    db.close();
    const refusal = await cliFailure(env(target), 'admin', 'restore', '--file', newer, '--check');
    expect(refusal).toContain('9999_from_the_future');
    expect(refusal).toContain('newer Labstock');
    expect(fs.existsSync(target)).toBe(false);
    // Nor does this release run on it (a downgrade): it says so rather than Kysely's "corrupted migrations".
    expect(await cliFailure(env(newer), 'admin', 'org', 'list')).toContain('migrated by a newer Labstock (migration 9999_from_the_future');
  });
});
