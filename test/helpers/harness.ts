import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { alertJob } from '../../src/alerts/job.js';
import { createWorker, type Worker } from '../../src/delivery/worker.js';
import { approvalMailJob } from '../../src/order-requests/approval-mail.js';
import { buildApp } from '../../src/server/app.js';
import { type Config, loadConfig } from '../../src/shared/config.js';
import type { ServiceDeps } from '../../src/shared/deps.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import { type OrgFixture, seedOrganization } from './fixtures.js';

export interface Harness {
  app: FastifyInstance;
  deps: ServiceDeps;
  config: Config;
  database: TestDatabase;
  /** Two organizations; every security test checks that A's token cannot reach B's ids. */
  a: OrgFixture;
  b: OrgFixture;
  call(token: string | null, opts: InjectOptions): Promise<LightMyRequestResponse>;
  /**
   * Starts a worker on the harness database (stopped by close()): delivery, and the reminders-and-alerts job
   * (src/alerts/job.ts) and the approval mails (src/order-requests/approval-mail.ts), which run at start; `worker.idle()` waits for that run.
   */
  startWorker(env?: Record<string, string>): Promise<Worker>;
  close(): Promise<void>;
}

export const TEST_ENV = {
  APP_URL: 'http://labstock.test',
  EVENT_SOURCE: 'https://labstock.test',
  EVENT_VENDOR: 'labstock',
  RATE_LIMIT_PER_MINUTE: '0',
  LOG_LEVEL: 'silent',
};

const noop = () => undefined;
const silentLog = { info: noop, warn: noop, error: noop, debug: noop };

/** The real app on a real database (SQLite, or PostgreSQL when DATABASE_URL says so), seeded with two orgs. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const database = await createTestDatabase();
  const config = loadConfig({ ...TEST_ENV, ...env, DATABASE_URL: database.url });
  const deps: ServiceDeps = { db: database.handle.db, config };
  const app = await buildApp({ config, db: database.handle.db });
  await app.ready();
  const a = await seedOrganization(deps, 'A');
  const b = await seedOrganization(deps, 'B');
  const workers: Worker[] = [];
  return {
    app,
    deps,
    config,
    database,
    a,
    b,
    call(token, opts) {
      const headers = { ...(opts.headers ?? {}) } as Record<string, string>;
      if (token) headers['access-token'] = token;
      return app.inject({ ...opts, headers });
    },
    async startWorker(workerEnv = {}) {
      const workerConfig = loadConfig({ ...TEST_ENV, ...env, ...workerEnv, DATABASE_URL: database.url });
      const worker = createWorker({
        db: database.handle.db,
        config: workerConfig,
        log: silentLog,
        pgSchema: database.pgSchema,
        metrics: app.deps.metrics,
        jobs: [
          alertJob({ db: database.handle.db, config: workerConfig, log: silentLog }),
          approvalMailJob({ db: database.handle.db, config: workerConfig, log: silentLog }),
        ],
      });
      await worker.start();
      workers.push(worker);
      return worker;
    },
    async close() {
      await Promise.all(workers.map((w) => w.stop()));
      await app.close();
      await database.drop();
    },
  };
}
