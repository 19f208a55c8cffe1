// Issue 9, items 5 and 1: PostgreSQL behind a real TCP proxy that stops forwarding (a stalled network or server)
// or resets every connection. /healthz answers within about a second either way; requests fail with our JSON 503
// within the connect and statement timeouts instead of hanging; everything works again once the database is back.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { type DbHandle, openDatabase } from '../../src/shared/db/database.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { expectOkOr503, onPostgres, PG_ONLY, PgAdmin, waitFor, within } from './_pg.js';

// Short timeouts so the test is quick: connect (and wait for a pooled connection) 1 s, statements 1 s, so a
// statement without an answer fails after the read deadline of 2 s (src/shared/db/postgres.ts).
const TIMEOUTS = { connectMs: 1000, statementMs: 1000, idleInTransactionMs: 5000 };
const APP_NAME = 'labstock-stall-test';

let h: Harness;
let proxy: TcpProxy;
let handle: DbHandle;
let app: FastifyInstance;

beforeAll(async () => {
  if (!onPostgres) return;
  h = await startHarness(); // the schema, migrations and two organizations (through a direct connection)
  proxy = await TcpProxy.forUrl(process.env.DATABASE_URL!).start();
  // The same data through the proxy: the real app on its own pool.
  handle = openDatabase(
    { kind: 'postgres', url: proxy.url(process.env.DATABASE_URL!) },
    { pgSchema: h.database.pgSchema!, poolSize: 3, timeouts: TIMEOUTS, applicationName: `${APP_NAME}-${h.database.pgSchema}` },
  );
  app = await buildApp({ config: h.config, db: handle.db });
  await app.ready();
});
afterAll(async () => {
  proxy?.resume();
  await app?.close();
  await handle?.close();
  await proxy?.close();
  await h?.close();
});

const call = (opts: InjectOptions) => app.inject({ ...opts, headers: { 'access-token': h.a.admin.token, ...(opts.headers ?? {}) } });
let qty = 1;
const putInstance = () =>
  call({
    method: 'PUT',
    url: `/inventory-items/${h.a.migratedLab.itemId}/instances/${h.a.migratedLab.instanceIds[0]}`,
    payload: { quantity: String(qty++) },
  });

async function timed<T>(p: Promise<T>): Promise<[T, number]> {
  const start = Date.now();
  const v = await p;
  return [v, Date.now() - start];
}

async function expectBack(): Promise<void> {
  await waitFor('a healthy /healthz', 15_000, async () => (await app.inject({ method: 'GET', url: '/healthz' })).statusCode === 200);
  await waitFor('a successful write', 15_000, async () => (await putInstance()).statusCode === 200);
  const res = await call({ method: 'GET', url: `/inventory-items/${h.a.legacyLab.itemId}` });
  expect(res.statusCode, res.body).toBe(200);
}

describe.skipIf(!onPostgres)(`a stalled or resetting database (${PG_ONLY})`, () => {
  it('connections carry the configured timeouts and application_name', async () => {
    const settings = await sql<{ s: string; i: string; a: string }>`select current_setting('statement_timeout') as s,
      current_setting('idle_in_transaction_session_timeout') as i, current_setting('application_name') as a`.execute(handle.db);
    expect(settings.rows[0]).toEqual({ s: '1s', i: '5s', a: `${APP_NAME}-${h.database.pgSchema}` });
  });

  it('stalled: /healthz answers 503 within about a second, requests a JSON 503 within the timeouts, then all recover', async () => {
    await Promise.all([putInstance(), putInstance(), putInstance()]); // three pooled connections through the proxy
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    proxy.stall();
    try {
      const [health, healthMs] = await timed(within(10_000, '/healthz while stalled', app.inject({ method: 'GET', url: '/healthz' })));
      expect(health.statusCode).toBe(503);
      expect(health.json()).toEqual({ status: 'unavailable', database: 'unreachable' });
      expect(healthMs).toBeLessThan(2000); // the check's budget is 900 ms; the rest is slack for a loaded machine

      // More requests than pooled connections: some wait on a stalled connection (read deadline, 2 s), some for
      // a free connection (connect timeout, 1 s), some open a new one the proxy holds (connect timeout, 1 s).
      const requests = [
        ...Array.from({ length: 4 }, () => call({ method: 'GET', url: '/user' })),
        ...Array.from({ length: 3 }, () => putInstance()),
        call({ method: 'GET', url: `/inventory-items?lab_id=${h.a.migratedLab.id}` }),
      ];
      const [answers, ms] = await timed(within(20_000, 'requests while stalled', Promise.all(requests)));
      for (const res of answers) {
        expectOkOr503(res.statusCode, res.body, 'a request while stalled');
        expect(res.statusCode, res.body).toBe(503);
      }
      expect(ms).toBeLessThan(12_000); // 2 s by the timeouts; far below a hang
      const [again, againMs] = await timed(within(10_000, '/healthz still stalled', app.inject({ method: 'GET', url: '/healthz' })));
      expect(again.statusCode).toBe(503);
      expect(againMs).toBeLessThan(2000);
    } finally {
      proxy.resume();
    }
    await expectBack();
  });

  it('a statement that waits too long is cancelled by statement_timeout: a JSON 503, the connection stays usable', async () => {
    const locker = await new PgAdmin().open();
    try {
      await locker.query('begin');
      await locker.query(`lock table ${h.database.pgSchema}.inventory_items in access exclusive mode`);
      const [res, ms] = await timed(
        within(10_000, 'a GET behind a lock', call({ method: 'GET', url: `/inventory-items/${h.a.legacyLab.itemId}` })),
      );
      expectOkOr503(res.statusCode, res.body, 'a GET behind a lock');
      expect(res.statusCode).toBe(503);
      expect(ms).toBeGreaterThanOrEqual(900);
      expect(ms).toBeLessThan(8000);
    } finally {
      await locker.query('rollback');
      await locker.close();
    }
    await expectBack();
  });

  it('reset: every connection reset idle and under load gives 2xx or a JSON 503, never a crash, then all succeed', async () => {
    await Promise.all([putInstance(), putInstance()]);
    proxy.reset();
    let stop = false;
    const statuses: number[] = [];
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const res = await within(15_000, 'a request while resetting', i % 2 === 0 ? putInstance() : call({ method: 'GET', url: '/user' }));
        expectOkOr503(res.statusCode, res.body, `request ${i} of client ${n}`);
        statuses.push(res.statusCode);
      }
    };
    const clients = Array.from({ length: 8 }, (_, n) => client(n));
    for (let round = 0; round < 10; round++) {
      await new Promise((r) => setTimeout(r, 200));
      proxy.reset();
    }
    stop = true;
    await Promise.all(clients);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(10);
    await expectBack();
  });
});
