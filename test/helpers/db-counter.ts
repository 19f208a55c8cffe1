// A second handle on a test's database that reports every statement it runs: the query budgets and plans
// (test/perf/), the outbox's fixed statement count (test/events/outbox.test.ts) and the idle worker's claims
// (test/delivery/leases.test.ts) count on it, while the harness's own handle stays uncounted.
import { type DbHandle, openDatabase } from '../../src/shared/db/database.js';
import type { Harness } from './harness.js';

/** Opens a counted handle on the harness's database (its PostgreSQL schema too); close it before the harness. */
export function openCountedHandle(h: Pick<Harness, 'config' | 'database'>, onQuery: (sql: string) => void): DbHandle {
  return openDatabase(h.config.database, { pgSchema: h.database.pgSchema, poolSize: 2, onQuery });
}
