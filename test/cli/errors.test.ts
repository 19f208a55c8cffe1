import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../../src/accounts/service.js';
import { systemActor } from '../../src/shared/actor.js';
import { cliEnv, cliFailure } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

// CLI errors are one line for people and one JSON document under --json for scripts, never a stack trace, and a
// refused command changes nothing.
let database: TestDatabase;
let env: NodeJS.ProcessEnv;
let orgId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  env = cliEnv(database);
  // Made through the service: each spawn below is an error under test (test/cli/cli.test.ts runs `org create`).
  orgId = (await createOrganization(database.handle.db, systemActor('cli'), { name: 'Errors University' })).id;
});
afterAll(async () => {
  await database?.drop();
});

const user = (role: string) => [
  'admin',
  'user',
  'create',
  '--org',
  orgId,
  '--email',
  'x@lab.example',
  '--first-name',
  'X',
  '--last-name',
  'Y',
  '--role',
  role,
];
const parsed = (stderr: string) => JSON.parse(stderr.trim());

describe('labstock errors', () => {
  it('a bad --role: one line, no stack, no user created', async () => {
    const stderr = await cliFailure(env, ...user('boss'));
    expect(stderr).toBe('error: --role must be admin or member, not "boss"\n');
    const users = await database.handle.db.selectFrom('users').select('email').execute();
    expect(users.map((u) => u.email)).not.toContain('x@lab.example');
  });

  it('a bad --role under --json: a JSON error with a stable code', async () => {
    const stderr = await cliFailure(env, ...user('boss'), '--json');
    expect(parsed(stderr)).toEqual({ error: { code: 'invalid_argument', message: '--role must be admin or member, not "boss"' } });
  });

  it('a missing option and an unknown command under --json', async () => {
    const missing = parsed(await cliFailure(env, 'admin', 'user', 'create', '--org', orgId, '--email', 'a@b.example', '--json'));
    expect(missing.error.code).toBe('invalid_argument');
    expect(missing.error.message).toContain('--first-name');
    const unknown = parsed(await cliFailure(env, 'admin', 'bogus', '--json'));
    expect(unknown.error).toEqual({ code: 'invalid_argument', message: "unknown command 'bogus'" });
  });

  it('an unknown organization: the service error code, under --json and not', async () => {
    const args = ['admin', 'lab', 'create', '--org', '00000000-0000-7000-8000-000000000000', '--name', 'Nowhere'];
    expect(parsed(await cliFailure(env, ...args, '--json')).error.code).toBe('not_found');
    const human = await cliFailure(env, ...args);
    expect(human).toMatch(/^error: .*not found\n$/);
  });

  it('bad configuration under --json names the variable', async () => {
    const stderr = await cliFailure({ ...env, PORT: 'abc' }, 'admin', 'org', 'create', '--name', 'Z', '--json');
    expect(parsed(stderr).error).toMatchObject({ code: 'invalid_configuration', message: expect.stringContaining('PORT') });
  });

  it('no error output carries a stack trace', async () => {
    for (const args of [user('boss'), ['admin', 'bogus'], ['admin', 'lab', 'create', '--org', 'not-a-uuid', '--name', 'N']]) {
      const stderr = await cliFailure(env, ...args);
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  });
});
