import type { Command } from 'commander';
import { loadConfig } from '../shared/config.js';
import { databaseLayer, newerRelease, reportAndExit } from './context.js';
import { emit } from './output.js';

// `labstock migrate`: brings the schema up to date (`serve` does too when it starts); `--dry-run` names the
// migrations that would run and changes nothing (docs/upgrading.md).

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('bring the database schema up to date')
    .option('--dry-run', 'list the migrations that would run, and change nothing')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean; dryRun?: boolean }) => {
      try {
        const config = loadConfig();
        const { migrateToLatest, openDatabase, pendingMigrations } = await databaseLayer();
        // Nothing prepared: a statement kept across a migration's own changes would fail (src/shared/db/prepared-names.ts).
        const handle = openDatabase(config.database, { preparedStatements: false });
        try {
          if (o.dryRun) {
            const pending = await pendingMigrations(handle.db).catch(newerRelease);
            emit(!!o.json, { database: handle.kind, dry_run: true, pending }, () =>
              pending.length ? `would apply: ${pending.join(', ')}` : 'database is up to date',
            );
          } else {
            const applied = await migrateToLatest(handle.db).catch(newerRelease);
            emit(!!o.json, { database: handle.kind, applied }, () =>
              applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date',
            );
          }
        } finally {
          await handle.close();
        }
      } catch (err) {
        reportAndExit(err);
      }
    });
}
