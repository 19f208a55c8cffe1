import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { knownMigrations } from './database.js';

// Backups of the embedded database (`labstock admin backup` / `restore`, src/cli/backup.ts; docs/deploy.md). They go
// through SQLite's online backup API, never a file copy: a copy of a live database in WAL mode misses what is still in
// the -wal file, and a copy taken mid-write is torn. The serving process keeps writing on its own connection meanwhile.

/** What a backup file holds, as far as restoring it is concerned. */
export interface BackupInfo {
  file: string;
  bytes: number;
  /** The last migration it was made with (its schema's release). */
  migration: string;
  migrations: number;
  organizations: number;
}

export class BackupRefusal extends Error {}

/** Tables whose rows mean a database is in use: restoring over them needs --force. */
const IN_USE_TABLES = ['organizations', 'users', 'operators'] as const;

/**
 * Copies the live SQLite database `source` into `target` (overwritten). The copy is taken in a single step, so it is one
 * consistent snapshot: stepping a page batch at a time restarts whenever another connection writes in between, which
 * under a steady write load may never finish. A read in WAL mode blocks no writer, so the server keeps serving.
 */
export async function backupSqlite(source: string, target: string): Promise<BackupInfo> {
  if (!fs.existsSync(source)) throw new BackupRefusal(`there is no database at ${source} (DATABASE_URL)`);
  if (path.resolve(source) === path.resolve(target)) throw new BackupRefusal('--file is the database itself');
  const partial = `${target}.partial`;
  fs.rmSync(partial, { force: true });
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(partial, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  // The copy inherits WAL mode; a backup is one self-contained file, so it leaves WAL (folding the -wal file in).
  const copy = new SQLite(partial);
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  const info = inspectBackup(partial);
  fs.renameSync(partial, target);
  return { ...info, file: target };
}

/** Checks that `file` is a whole Labstock database that this release can run, and says what it holds. */
export function inspectBackup(file: string): BackupInfo {
  if (!fs.existsSync(file)) throw new BackupRefusal(`${file} does not exist`);
  let db: SQLite.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
    db.pragma('schema_version');
  } catch {
    throw new BackupRefusal(`${file} is not a SQLite database (a Labstock backup is made by labstock admin backup)`);
  }
  try {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupRefusal(`${file} is damaged: ${String(check)}`);
    const tables = new Set(
      (db.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map((r) => r.name),
    );
    if (!tables.has('kysely_migration') || !IN_USE_TABLES.every((t) => tables.has(t)))
      throw new BackupRefusal(`${file} is a SQLite database but not a Labstock one (it has no Labstock tables)`);
    const applied = (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((r) => r.name);
    const known = new Set(knownMigrations());
    const newer = applied.filter((name) => !known.has(name));
    if (newer.length > 0)
      throw new BackupRefusal(
        `${file} was made by a newer Labstock (migrations ${newer.join(', ')} are unknown to this release): upgrade Labstock first`,
      );
    const organizations = (db.prepare('select count(*) as n from organizations').get() as { n: number }).n;
    return { file, bytes: fs.statSync(file).size, migration: applied.at(-1) ?? '', migrations: applied.length, organizations };
  } finally {
    db.close();
  }
}

/** Whether the SQLite database at `file` holds any organization, user or operator (a fresh one holds none). */
export function sqliteInUse(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const tables = new Set(
      (db.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map((r) => r.name),
    );
    return IN_USE_TABLES.some((t) => tables.has(t) && db.prepare(`select 1 from ${t} limit 1`).get() !== undefined);
  } finally {
    db.close();
  }
}

/**
 * Replaces the database at `target` with the backup `file` through the backup API (the target's -wal and -shm stay
 * consistent, which deleting and copying files would not guarantee). The service must be stopped meanwhile.
 */
export async function restoreSqlite(file: string, target: string, options: { force: boolean }): Promise<BackupInfo> {
  const info = inspectBackup(file);
  if (path.resolve(file) === path.resolve(target)) throw new BackupRefusal('--file is the database itself');
  if (!options.force && sqliteInUse(target))
    throw new BackupRefusal(`the database at ${target} is not empty: restoring replaces all of it; add --force to do so`);
  fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  const source = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    await source.backup(target, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  // The service opens its database in WAL mode (src/shared/db/database.ts); the restored file starts that way too.
  const restored = new SQLite(target);
  try {
    restored.pragma('journal_mode = WAL');
  } finally {
    restored.close();
  }
  return info;
}
