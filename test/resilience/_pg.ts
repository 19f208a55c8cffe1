// Shared by the tests of a database that goes away (test/resilience): a superuser connection that kills a
// process's backends (found by their application_name, see src/shared/db/postgres.ts), and the checks those
// tests make on what the API answers meanwhile.
import pg from 'pg';
import { expect } from 'vitest';
import { PG_CHANNEL } from '../../src/delivery/signal.js';
import { parseDatabaseUrl } from '../../src/shared/config.js';

export const onPostgres = parseDatabaseUrl(process.env.DATABASE_URL).kind === 'postgres';
export const PG_ONLY = 'PostgreSQL only: SQLite runs inside the process, there is no connection to lose or server to stall';

export class PgAdmin {
  private client = new pg.Client({ connectionString: process.env.DATABASE_URL, application_name: 'labstock-test-admin' });
  async open(): Promise<this> {
    await this.client.connect();
    return this;
  }
  close = () => this.client.end();
  query = <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => this.client.query<R>(text, values);

  /** pg_terminate_backend on every backend of `appName`; the pids killed. */
  async kill(appName: string): Promise<number[]> {
    // The call in the select list of a materialized set: in a WHERE clause the planner may call it before the
    // other conditions, on every backend of the server.
    const { rows } = await this.query<{ pid: number; killed: boolean }>(
      `
      with targets as materialized (select pid from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid())
      select pid, pg_terminate_backend(pid) as killed from targets`,
      [appName],
    );
    return rows.filter((r) => r.killed).map((r) => r.pid);
  }

  async backends(appName: string): Promise<{ pid: number; query: string; state: string; wait_event_type: string | null }[]> {
    return (
      await this.query<{ pid: number; query: string; state: string; wait_event_type: string | null }>(
        'select pid, query, state, wait_event_type from pg_stat_activity where application_name = $1',
        [appName],
      )
    ).rows;
  }

  /** The pid of `appName`'s delivery LISTEN connection, if it has one. */
  async listener(appName: string): Promise<number | undefined> {
    return (await this.backends(appName)).find((b) => b.query === `LISTEN ${PG_CHANNEL}`)?.pid;
  }
}

/** `p`, or a clear failure if it has not settled within `ms` (a hang is what these tests guard against). */
export async function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, hang]);
  } finally {
    clearTimeout(timer);
  }
}

export async function waitFor(what: string, timeoutMs: number, check: () => Promise<boolean> | boolean): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A response of the API while the database is away: success, or our JSON 503 (never a 500, never another shape). */
export function expectOkOr503(status: number, body: string, what: string): void {
  if (status >= 200 && status < 300) return;
  expect(status, `${what}: ${body}`).toBe(503);
  const json = JSON.parse(body) as Record<string, unknown>;
  expect(json).toMatchObject({ code: 'service_unavailable', message: expect.any(String), request_id: expect.any(String) });
  expect(body).not.toMatch(/terminat|postgres|ECONN|stack|select /i);
}
