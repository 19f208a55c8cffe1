import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { loadConfig } from '../shared/config.js';
import type { BackupInfo } from '../shared/db/backup.js';
import { databaseLayer, reportAndExit } from './context.js';
import { emit, UsageError } from './output.js';

// `labstock admin backup` and `labstock admin restore` (docs/deploy.md, Backups). The embedded database is copied
// through SQLite's online backup API while the service serves (src/shared/db/backup.ts); PostgreSQL has its own tools,
// which are run (backup) or named (restore) here rather than imitated.

const run = promisify(execFile);
/** Loaded through the CLI's database layer, so that its errors are told as the database's (src/cli/context.ts). */
const backupModule = async () => {
  await databaseLayer();
  return import('../shared/db/backup.js');
};
type Json = { json?: boolean };

/** A pg_dump custom-format archive starts with these bytes. */
const PG_ARCHIVE_MAGIC = 'PGDMP';

const pgRestoreRecipe = (file: string) =>
  `stop labstock, then: pg_restore --clean --if-exists --no-owner --dbname "$DATABASE_URL" ${file} && labstock migrate (docs/deploy.md, Backups)`;

export function registerBackup(admin: Command): void {
  admin
    .command('backup')
    .description('copy the database into one file while the service runs (SQLite: online backup; PostgreSQL: pg_dump)')
    .requiredOption('--file <path>', 'where the backup goes (replaced if it exists)')
    .option('--json', 'print JSON')
    .action((o: Json & { file: string }) =>
      guarded(async () => {
        const { database } = loadConfig();
        if (database.kind === 'sqlite') {
          const { backupSqlite } = await backupModule();
          const info = await backupSqlite(database.file, o.file);
          emit(!!o.json, { database: 'sqlite', ...info }, () => `backed up to ${info.file}: ${describe(info)}`);
          return;
        }
        await pgDump(database.url, o.file);
        const bytes = fs.statSync(o.file).size;
        emit(!!o.json, { database: 'postgres', file: o.file, bytes }, () => `backed up to ${o.file} with pg_dump (${bytes} bytes)`);
      }),
    );

  admin
    .command('restore')
    .description('replace the database with a backup (stop the service first); --check only checks the file')
    .requiredOption('--file <path>', 'a file made by labstock admin backup')
    .option('--force', 'replace a database that holds data')
    .option('--check', 'check that the file is a backup this release can restore; change nothing')
    .option('--json', 'print JSON')
    .action((o: Json & { file: string; force?: boolean; check?: boolean }) =>
      guarded(async () => {
        const { database } = loadConfig();
        if (isPgArchive(o.file)) {
          const info = await checkPgArchive(o.file);
          if (o.check) return emit(!!o.json, info, () => `${o.file} is a pg_dump archive of a Labstock database`);
          throw new UsageError(`${o.file} is a PostgreSQL backup: ${pgRestoreRecipe(o.file)}`);
        }
        if (o.check) {
          const info = (await backupModule()).inspectBackup(o.file);
          return emit(!!o.json, { database: 'sqlite', ...info }, () => `${o.file} can be restored: ${describe(info)}`);
        }
        if (database.kind === 'postgres')
          throw new UsageError('DATABASE_URL names PostgreSQL: restore a SQLite backup into a SQLite DATABASE_URL');
        const info = await (await backupModule()).restoreSqlite(o.file, database.file, { force: !!o.force });
        emit(!!o.json, { database: 'sqlite', restored_to: database.file, ...info }, () =>
          [
            `restored ${o.file} into ${database.file}: ${describe(info)}`,
            'start labstock again (it applies any newer migrations at start)',
          ].join('\n'),
        );
      }),
    );
}

const describe = (info: BackupInfo) =>
  `${info.bytes} bytes, ${info.organizations} organization(s), schema at ${info.migration} (${info.migrations} migrations)`;

async function guarded(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    const { BackupRefusal } = await backupModule();
    reportAndExit(err instanceof BackupRefusal ? new UsageError(err.message) : err);
  }
}

/** pg_dump's custom format: one compressed file that pg_restore reads selectively. */
async function pgDump(url: string, file: string): Promise<void> {
  try {
    await run('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, `--dbname=${url}`], { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as { code?: unknown; stderr?: string };
    if (e.code === 'ENOENT')
      throw new UsageError(
        `pg_dump is not on PATH (apt-get install postgresql-client); or run: pg_dump --format=custom --no-owner --file=${file} "$DATABASE_URL"`,
      );
    throw new UsageError(`pg_dump failed: ${(e.stderr ?? String(err)).trim()}`);
  }
}

function isPgArchive(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(PG_ARCHIVE_MAGIC.length);
    fs.readSync(fd, head, 0, head.length, 0);
    return head.toString('latin1') === PG_ARCHIVE_MAGIC;
  } finally {
    fs.closeSync(fd);
  }
}

/** pg_restore --list names the archive's tables: a Labstock one has the migration bookkeeping and organizations. */
async function checkPgArchive(file: string): Promise<{ database: 'postgres'; file: string; bytes: number }> {
  let list: string;
  try {
    list = (await run('pg_restore', ['--list', file], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    throw new UsageError(`pg_restore --list ${file} failed (is pg_restore on PATH?): ${(err as Error).message}`);
  }
  const hasTable = (name: string) => new RegExp(`TABLE DATA \\S+ ${name} `).test(list);
  if (!hasTable('kysely_migration') || !hasTable('organizations'))
    throw new UsageError(`${file} is a pg_dump archive but not of a Labstock database (no Labstock tables in it)`);
  return { database: 'postgres', file, bytes: fs.statSync(file).size };
}
