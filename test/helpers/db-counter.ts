// A second handle on a test's database that reports every statement it runs: the query budgets and plans
// (test/perf/), the outbox's fixed statement count (test/events/outbox.test.ts) and the idle worker's claims
// (test/delivery/leases.test.ts) count on it, while the harness's own handle stays uncounted.
import type { FastifyInstance } from 'fastify';
import { type BuildOptions, buildApp } from '../../src/server/app.js';
import { type DbHandle, openDatabase } from '../../src/shared/db/database.js';
import type { Harness } from './harness.js';

/** Opens a counted handle on the harness's database (its PostgreSQL schema too); close it before the harness. */
export function openCountedHandle(h: Pick<Harness, 'config' | 'database'>, onQuery: (sql: string) => void): DbHandle {
  return openDatabase(h.config.database, { pgSchema: h.database.pgSchema, poolSize: 2, onQuery });
}

export interface CountedApp {
  /** A second app over the counted handle; the harness's own app stays uncounted. */
  app: FastifyInstance;
  handle: DbHandle;
  close(): Promise<void>;
}

/** A ready app over a counted handle on the harness's database; close it before the harness. */
export async function startCountedApp(
  h: Pick<Harness, 'config' | 'database'>,
  onQuery: (sql: string) => void,
  options: Pick<BuildOptions, 'authCacheTtlMs'> = {},
): Promise<CountedApp> {
  const handle = openCountedHandle(h, onQuery);
  const app = await buildApp({ config: h.config, db: handle.db, ...options });
  await app.ready();
  return {
    app,
    handle,
    async close() {
      await app.close();
      await handle.close();
    },
  };
}
