import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/shared/app.js';
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
  close(): Promise<void>;
}

export const TEST_ENV = {
  APP_URL: 'http://labstock.test',
  EVENT_SOURCE: 'https://labstock.test',
  EVENT_VENDOR: 'labstock',
  RATE_LIMIT_PER_MINUTE: '0',
  LOG_LEVEL: 'silent',
};

/** The real app on a real database (SQLite, or PostgreSQL when DATABASE_URL says so), seeded with two orgs. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const database = await createTestDatabase();
  const config = loadConfig({ ...TEST_ENV, ...env, DATABASE_URL: database.url });
  const deps: ServiceDeps = { db: database.handle.db, config };
  const app = await buildApp({ config, db: database.handle.db, dbKind: database.handle.kind });
  await app.ready();
  const a = await seedOrganization(deps, 'A');
  const b = await seedOrganization(deps, 'B');
  return {
    app, deps, config, database, a, b,
    call(token, opts) {
      const headers = { ...(opts.headers ?? {}) } as Record<string, string>;
      if (token) headers['access-token'] = token;
      return app.inject({ ...opts, headers });
    },
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
