import { type Config, ConfigError, loadConfig } from '../shared/config.js';
import { type DbHandle, migrateToLatest, openDatabase } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';

export interface CliContext {
  config: Config;
  handle: DbHandle;
  deps: ServiceDeps;
}

/** Reads the environment, opens the database and brings its schema up to date (migrations are idempotent). */
export async function openContext(): Promise<CliContext> {
  const config = loadConfig();
  const handle = openDatabase(config.database);
  await migrateToLatest(handle.db);
  return { config, handle, deps: { db: handle.db, config } };
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
  if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
  else if (err instanceof Error && err.name === 'AppError') process.stderr.write(`error: ${err.message}\n`);
  else process.stderr.write(`error: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
}
