import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/shared/config.js';
import { cliEnv, cliFailure, cliJson } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { TEST_ENV } from '../helpers/harness.js';
import { NEW_PASSWORD, secretOf } from '../helpers/links.js';

// `labstock admin bootstrap` and `labstock admin user reset-link` (docs/auth.md), the real binary against the
// test's own database, and the links they print used against the real API.

let database: TestDatabase;
let env: NodeJS.ProcessEnv;
let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  database = await createTestDatabase();
  env = cliEnv(database);
  app = await buildApp({ config: loadConfig({ ...TEST_ENV, DATABASE_URL: database.url }), db: database.handle.db });
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
});

describe('labstock admin bootstrap', () => {
  it('on an empty installation creates the organization and its admin and prints a one-time link that signs them in', async () => {
    const out = await cliJson(env, 'admin', 'bootstrap', '--org', 'First Lab', '--email', 'Boss@Example.org');
    expect(out).toMatchObject({ organization: { name: 'First Lab' }, user: { email: 'boss@example.org' } });
    expect(Date.parse(out.expires_at) - Date.now()).toBeGreaterThan(7 * 86_400_000 - 120_000);
    const token = secretOf(out.url);
    const accepted = await app.inject({
      method: 'POST',
      url: '/auth/invitations/accept',
      payload: { token, first_name: 'Bo', last_name: 'Boss', password: NEW_PASSWORD },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().organization).toEqual({ id: out.organization.id, name: 'First Lab', role: 'admin' });
    expect(
      (await app.inject({ method: 'POST', url: '/auth/invitations/accept', payload: { token, password: NEW_PASSWORD } })).statusCode,
    ).toBe(404);
  });

  it('refuses once an organization exists, and prints no link', async () => {
    const stderr = await cliFailure(env, 'admin', 'bootstrap', '--org', 'Second', '--email', 'eve@example.org', '--json');
    expect(JSON.parse(stderr).error.code).toBe('conflict');
    expect(stderr).not.toContain('/app/');
    const orgs = await database.handle.db.selectFrom('organizations').select('name').execute();
    expect(orgs.map((o) => o.name)).toEqual(['First Lab']);
  });
});

describe('labstock admin user reset-link', () => {
  it('prints a one-time reset link, by e-mail or by id; the newest one works once, the older one not at all', async () => {
    const first = await cliJson(env, 'admin', 'user', 'reset-link', '--email', 'boss@example.org');
    const second = await cliJson(env, 'admin', 'user', 'reset-link', '--user', first.user.id);
    expect(second.user).toEqual({ id: first.user.id, email: 'boss@example.org' });
    expect(Date.parse(second.expires_at) - Date.now()).toBeGreaterThan(86_400_000 - 120_000);
    const complete = (token: string) =>
      app.inject({ method: 'POST', url: '/auth/password-reset/complete', payload: { token, password: 'a brand new passphrase 5' } });
    expect((await complete(secretOf(first.url))).statusCode).toBe(404);
    expect((await complete(secretOf(second.url))).statusCode).toBe(204);
    expect((await complete(secretOf(second.url))).statusCode).toBe(404);
    const signIn = await app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      payload: { email: 'boss@example.org', password: 'a brand new passphrase 5' },
    });
    expect(signIn.statusCode).toBe(200);
  });

  it('refuses an unknown user and a missing or doubled selector', async () => {
    expect(await cliFailure(env, 'admin', 'user', 'reset-link', '--email', 'nobody@example.org')).toContain('not found');
    expect(await cliFailure(env, 'admin', 'user', 'reset-link')).toContain('exactly one of --email and --user');
  });
});
