import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser } from '../../../src/accounts/service.js';
import { createOperator, createOperatorToken, disableOperator, revokeOperatorToken } from '../../../src/operators/service.js';
import { systemActor } from '../../../src/shared/actor.js';
import { type CountedApp, startCountedApp } from '../../helpers/db-counter.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { secretOf } from '../../helpers/links.js';
import { givePassword, PASSWORD, sessionCookieOf } from '../../helpers/sessions.js';

// Issue 15: a credential the authentication cache holds (src/accounts/auth-cache.ts) stops working on the very next
// request after whatever ends it or changes what it may do, in the same process. Each case first shows the
// credential cached (a request that runs no authentication statement), then changes it through the same app and
// handle (so on SQLite no other connection's commit is what clears it), then asks again. The entries live for a
// minute here, so only the forgetting can end them within the test.

let h: Harness;
let counted: CountedApp;
let app: FastifyInstance;
let statements: string[] = [];

const isAuthLookup = (sql: string) => /^select "(access_tokens|operator_tokens)"\."id" as "token_id"|^select "sessions"\.\*/.test(sql);

type Credential = { token: string } | { cookie: string; csrf: string };

function call(cred: Credential, opts: InjectOptions) {
  const headers = { ...(opts.headers ?? {}) } as Record<string, string>;
  if ('token' in cred) headers['access-token'] = cred.token;
  else {
    headers.cookie = `labstock_session=${cred.cookie}`;
    if ((opts.method ?? 'GET') !== 'GET') headers['x-csrf-token'] = cred.csrf;
  }
  return app.inject({ ...opts, headers });
}

const status = async (cred: Credential, url = '/user') => (await call(cred, { method: 'GET', url })).statusCode;

/** Used once (it may be looked up), then again: the second request must be answered from the cache. */
async function expectCached(cred: Credential, url = '/user', expected = 200): Promise<void> {
  expect(await status(cred, url)).toBe(expected);
  statements = [];
  expect(await status(cred, url)).toBe(expected);
  expect(statements.filter(isAuthLookup), 'the second request looked its credential up').toEqual([]);
}

async function signIn(email: string): Promise<{ cookie: string; csrf: string }> {
  const res = await app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email, password: PASSWORD } });
  expect(res.statusCode, res.body).toBe(200);
  return { cookie: sessionCookieOf(res)!, csrf: res.json().csrf_token };
}

let n = 0;
/** A fresh member of org A with a password and a token (deactivation and role changes must not touch the fixtures). */
async function newMember() {
  const email = `cached-${++n}@example.org`;
  const user = await createUser(h.deps.db, systemActor('cli'), {
    organizationId: h.a.orgId,
    email,
    firstName: 'Cache',
    lastName: `Member${n}`,
  });
  await givePassword(h, user.id);
  const { token } = await createToken(h.deps.db, systemActor('cli'), { userId: user.id, organizationId: h.a.orgId, name: 'main' });
  return { id: user.id, email, token: { token } };
}

const admin = () => ({ token: h.a.admin.token });

beforeAll(async () => {
  h = await startHarness();
  counted = await startCountedApp(h, (sql) => statements.push(sql), { authCacheTtlMs: 60_000 });
  app = counted.app;
});
afterAll(async () => {
  await counted?.close();
  await h?.close();
});

describe('a cached credential stops working on the next request after', () => {
  it('its owner revokes the token', async () => {
    const m = await newMember();
    const extra = (await call(m.token, { method: 'POST', url: '/user/tokens', payload: { name: 'extra' } })).json();
    await expectCached({ token: extra.token });
    expect((await call(m.token, { method: 'DELETE', url: `/user/tokens/${extra.id}` })).statusCode).toBe(204);
    expect(await status({ token: extra.token })).toBe(401);
    expect(await status(m.token)).toBe(200);
  });

  it('an org admin revokes the token', async () => {
    const m = await newMember();
    await expectCached(m.token);
    const id = (await call(admin(), { method: 'GET', url: '/organization/tokens?per_page=100' }))
      .json()
      .find((t: { user: { id: string } }) => t.user.id === m.id).id;
    expect((await call(admin(), { method: 'DELETE', url: `/organization/tokens/${id}` })).statusCode).toBe(204);
    expect(await status(m.token)).toBe(401);
  });

  it('sign-out (this session), while the same person’s other session goes on', async () => {
    const m = await newMember();
    const [one, two] = [await signIn(m.email), await signIn(m.email)];
    await expectCached(one);
    await expectCached(two);
    expect((await call(one, { method: 'POST', url: '/auth/sign-out' })).statusCode).toBe(204);
    expect(await status(one)).toBe(401);
    expect(await status(two)).toBe(200);
  });

  it('sign-out everywhere (every session; the token goes on)', async () => {
    const m = await newMember();
    const [one, two] = [await signIn(m.email), await signIn(m.email)];
    for (const c of [one, two, m.token]) await expectCached(c);
    expect((await call(one, { method: 'POST', url: '/auth/sign-out-everywhere' })).statusCode).toBe(204);
    expect(await status(one)).toBe(401);
    expect(await status(two)).toBe(401);
    expect(await status(m.token)).toBe(200);
  });

  it('a password change (every other session; this one goes on)', async () => {
    const m = await newMember();
    const [one, two] = [await signIn(m.email), await signIn(m.email)];
    await expectCached(one);
    await expectCached(two);
    const res = await call(one, {
      method: 'PUT',
      url: '/user/password',
      payload: { current_password: PASSWORD, new_password: 'a much newer passphrase' },
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(await status(two)).toBe(401);
    expect(await status(one)).toBe(200);
  });

  it('a password reset (every session)', async () => {
    const m = await newMember();
    const session = await signIn(m.email);
    await expectCached(session);
    const link = await call(admin(), { method: 'POST', url: `/organization/users/${m.id}/password-reset` });
    expect(link.statusCode, link.body).toBe(201);
    const done = await app.inject({
      method: 'POST',
      url: '/auth/password-reset/complete',
      payload: { token: secretOf(link.json().url), password: 'a reset passphrase here' },
    });
    expect(done.statusCode, done.body).toBe(204);
    expect(await status(session)).toBe(401);
  });

  it('deactivation in the organization (its token and its session)', async () => {
    const m = await newMember();
    const session = await signIn(m.email);
    await expectCached(m.token);
    await expectCached(session);
    const res = await call(admin(), { method: 'PUT', url: `/organization/users/${m.id}`, payload: { active: false } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await status(m.token)).toBe(401);
    expect(await status(session)).toBe(401);
  });

  it('a role change, both ways: the cached Actor acts with the new role at once', async () => {
    const m = await newMember();
    const session = await signIn(m.email);
    const adminOnly = '/organization/users';
    await expectCached(m.token, adminOnly, 403);
    await expectCached(session, adminOnly, 403);
    const promote = await call(admin(), { method: 'PUT', url: `/organization/users/${m.id}`, payload: { role: 'admin' } });
    expect(promote.statusCode, promote.body).toBe(200);
    expect(await status(m.token, adminOnly)).toBe(200);
    expect(await status(session, adminOnly)).toBe(200);
    await expectCached(m.token, adminOnly, 200);
    const demote = await call(admin(), { method: 'PUT', url: `/organization/users/${m.id}`, payload: { role: 'member' } });
    expect(demote.statusCode, demote.body).toBe(200);
    expect(await status(m.token, adminOnly)).toBe(403);
    expect(await status(session, adminOnly)).toBe(403);
  });

  it('an operator token is revoked, and an operator disabled (the services the command line calls)', async () => {
    const op = await createOperator(h.deps.db, systemActor('cli'), { email: 'cached-op@example.org', firstName: 'Op', lastName: 'Cached' });
    const [t1, t2] = [
      await createOperatorToken(h.deps.db, systemActor('cli'), { operator: op.id }),
      await createOperatorToken(h.deps.db, systemActor('cli'), { operator: op.id }),
    ];
    const lines = '/shop/order-items';
    await expectCached({ token: t1.token }, lines);
    await expectCached({ token: t2.token }, lines);
    // Through the app's own handle: on SQLite the app's connection sees no other connection's commit.
    await revokeOperatorToken(counted.handle.db, systemActor('cli'), t1.id);
    expect(await status({ token: t1.token }, lines)).toBe(401);
    expect(await status({ token: t2.token }, lines)).toBe(200);
    await expectCached({ token: t2.token }, lines);
    await disableOperator(counted.handle.db, systemActor('cli'), op.id);
    expect(await status({ token: t2.token }, lines)).toBe(401);
  });
});

describe('what the cache does not change', () => {
  it('a credential the cache holds is still refused where it was refused (an operator token on tenant routes, a tenant token on fulfilment)', async () => {
    const m = await newMember();
    await expectCached(m.token);
    expect(await status(m.token, '/shop/order-items')).toBe(403);
    const op = await createOperator(h.deps.db, systemActor('cli'), { email: 'cached-op2@example.org', firstName: 'Op', lastName: 'Two' });
    const t = await createOperatorToken(h.deps.db, systemActor('cli'), { operator: op.id });
    await expectCached({ token: t.token }, '/shop/order-items');
    expect(await status({ token: t.token }, '/labs')).toBe(403);
  });

  it('an unknown token is looked up every time (nothing is cached for a refusal)', async () => {
    const unknown = { token: `lst_${'x'.repeat(43)}` };
    for (let i = 0; i < 2; i++) {
      statements = [];
      expect(await status(unknown)).toBe(401);
      expect(statements.filter(isAuthLookup)).toHaveLength(1);
    }
  });
});
