import { type Config, ConfigError, loadConfig } from '../shared/config.js';
import type { DbHandle } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError } from '../shared/errors.js';
import { printError, UsageError, wantsJson } from './output.js';

// The database layer (Kysely, both drivers, every migration) is loaded by the first command that needs it, so that
// --help, --version and a mistyped option answer without it (src/cli/admin.ts says why).
let databaseModule: typeof import('../shared/db/database.js') | undefined;
export const databaseLayer = async () => {
  databaseModule ??= await import('../shared/db/database.js');
  return databaseModule;
};

/** The database layer's test; an error thrown before anything loaded that layer is not one of the database's. */
const isDatabaseUnavailable = (err: unknown) => databaseModule?.isDatabaseUnavailable(err) ?? false;

export interface CliContext {
  config: Config;
  handle: DbHandle;
  deps: ServiceDeps;
}

/**
 * Reads the environment, opens the database and brings its schema up to date (migrations are idempotent).
 * Migrations run on their own connection without statement_timeout (an index build on a large table may take
 * longer than any request should); everything else gets the configured timeouts.
 */
export async function openContext(options: { onConnectionError?: (err: Error) => void } = {}): Promise<CliContext> {
  const config = loadConfig();
  const { migrateToLatest, openDatabase } = await databaseLayer();
  if (config.database.kind === 'postgres') {
    const migrating = openDatabase(config.database, {
      poolSize: 1,
      timeouts: { ...config.databaseTimeouts, statementMs: 0 },
      preparedStatements: false, // a statement kept across a migration's own changes would fail
    });
    try {
      await migrateToLatest(migrating.db).catch(newerRelease);
    } finally {
      await migrating.close();
    }
  }
  const handle = openDatabase(config.database, {
    timeouts: config.databaseTimeouts,
    preparedStatements: config.databasePreparedStatements,
    ...options,
  });
  if (config.database.kind === 'sqlite') await migrateToLatest(handle.db).catch(newerRelease);
  return { config, handle, deps: { db: handle.db, config } };
}

/** Kysely's words for a database migrated by a newer release (a downgrade), said as what to do about it. */
export function newerRelease(err: unknown): never {
  const missing = err instanceof Error ? /previously executed migration (\S+) is missing/.exec(err.message)?.[1] : undefined;
  if (!missing) throw err;
  throw new UsageError(
    `the database was migrated by a newer Labstock (migration ${missing} is unknown to this release): install that release again, or restore a backup made before the upgrade (docs/deploy.md, Upgrades)`,
  );
}

/**
 * Long-running commands (serve, worker) outlive a database that goes away: an error of a lost or stalled
 * connection that escapes as an unhandled rejection or an 'error' event nobody listens to is logged, and the
 * process keeps serving (the pool reconnects on the next query). Anything else is a bug: logged, then exit 1.
 */
export function surviveDatabaseFailures(log: { error(obj: object, msg: string): void; fatal(obj: object, msg: string): void }): void {
  const handle = (kind: string) => (err: unknown) => {
    const summary = { message: (err as Error)?.message, code: (err as { code?: unknown })?.code };
    if (isDatabaseUnavailable(err)) {
      log.error({ err: summary, kind }, 'database connection failure outside a request; still serving');
      return;
    }
    log.fatal({ err, kind }, 'unexpected error; exiting');
    process.exit(1);
  };
  process.on('uncaughtException', handle('uncaughtException'));
  process.on('unhandledRejection', handle('unhandledRejection'));
}

/** Runs a command with an open database, closes it, and turns expected failures into one clear line. */
export async function withContext(fn: (ctx: CliContext) => Promise<void>): Promise<void> {
  let ctx: CliContext | undefined;
  try {
    ctx = await openContext();
    await fn(ctx);
  } catch (err) {
    reportAndExit(err);
  } finally {
    await ctx?.handle.close();
  }
}

export function reportAndExit(err: unknown): never {
  if (err instanceof ConfigError) {
    if (wantsJson()) printError('invalid_configuration', err.problems.join('; '));
    else process.stderr.write(`${err.message}\n`);
  } else if (err instanceof AppError) printError(err.code, err.message);
  else if (err instanceof UsageError) printError('invalid_argument', err.message);
  else if (isDatabaseUnavailable(err)) printError('service_unavailable', `the database is unreachable: ${(err as Error).message}`);
  else {
    // A bug: the stack helps whoever reports it, but only on request (scripts read one line or one JSON document).
    const message = err instanceof Error ? err.message : String(err);
    printError(
      'internal_error',
      `unexpected error: ${message}${process.env.LABSTOCK_DEBUG ? '' : ' (set LABSTOCK_DEBUG=1 for the stack)'}`,
    );
    if (process.env.LABSTOCK_DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  }
  process.exit(1);
}
