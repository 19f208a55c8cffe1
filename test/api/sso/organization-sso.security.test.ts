import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../../../src/server/app.js';
import { expectError } from '../../helpers/errors.js';
import { type Snapshot, snapshotDb } from '../../helpers/operations.js';
import { givePassword, signIn, withSession } from '../../helpers/sessions.js';
import { CALLBACK, configureSso, cookieOf, FROM_APP, person, type SsoWorld, startSsoWorld } from './_helpers.js';

let w: SsoWorld;
beforeAll(async () => {
  w = await startSsoWorld();
  await givePassword(w.h, w.h.a.member.id);
  await givePassword(w.h, w.h.a.admin.id);
  await configureSso(w);
});
afterAll(() => w?.close());

const SETTINGS = (issuer: string) => ({
  issuer,
  client_id: 'b-client',
  client_secret: 'b-secret-value-0123',
  allowed_domains: ['b.example'],
  enabled: true,
});

describe('/organization/sso (security)', () => {
  it('members are refused (403) by token and by session, and change nothing', async () => {
    const s = await signIn(w.h, 'member-A@example.org');
    const before: Snapshot = await snapshotDb(w.h);
    for (const c of [
      { method: 'GET', url: '/organization/sso' },
      { method: 'PUT', url: '/organization/sso', payload: SETTINGS(w.op.issuer) },
      { method: 'DELETE', url: '/organization/sso' },
    ] as const) {
      expectError(await w.h.call(w.h.a.member.token, c), 403, 'forbidden');
      expectError(await withSession(w.h, s, c), 403, 'forbidden');
    }
    const { sessions: _a, ...restBefore } = before;
    const { sessions: _b, ...restAfter } = await snapshotDb(w.h);
    expect(restAfter).toEqual(restBefore);
  });

  it('without credentials: 401', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await w.h.call(null, {
        method,
        url: '/organization/sso',
        ...(method === 'PUT' ? { payload: SETTINGS(w.op.issuer) } : {}),
      });
      expectError(res, 401, 'unauthorized');
    }
  });

  it("another organization's admin never reads, changes or deletes org A's settings: they have their own", async () => {
    const a = (await w.h.call(w.h.a.admin.token, { method: 'GET', url: '/organization/sso' })).json();
    expectError(await w.h.call(w.h.b.admin.token, { method: 'GET', url: '/organization/sso' }), 404, 'not_found');
    expectError(await w.h.call(w.h.b.admin.token, { method: 'DELETE', url: '/organization/sso' }), 404, 'not_found');
    const put = await w.h.call(w.h.b.admin.token, { method: 'PUT', url: '/organization/sso', payload: SETTINGS('https://idp.b.example') });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ issuer: 'https://idp.b.example', client_id: 'b-client', allowed_domains: ['b.example'] });
    expect((await w.h.call(w.h.a.admin.token, { method: 'GET', url: '/organization/sso' })).json()).toEqual(a);
    expect((await w.h.call(w.h.b.admin.token, { method: 'DELETE', url: '/organization/sso' })).statusCode).toBe(204);
    expect((await w.h.call(w.h.a.admin.token, { method: 'GET', url: '/organization/sso' })).json()).toEqual(a);
  });

  it('a session without the CSRF token, or from another origin, changes nothing (403 csrf_failed)', async () => {
    const s = await signIn(w.h, 'admin-A@example.org');
    const body = { ...SETTINGS(w.op.issuer), enabled: false };
    expectError(await withSession(w.h, s, { method: 'PUT', url: '/organization/sso', payload: body }, { csrf: false }), 403, 'csrf_failed');
    expectError(
      await withSession(w.h, s, { method: 'DELETE', url: '/organization/sso', headers: { origin: 'https://evil.example' } }),
      403,
      'csrf_failed',
    );
    expect((await w.h.call(w.h.a.admin.token, { method: 'GET', url: '/organization/sso' })).json().enabled).toBe(true);
  });
});

describe('the client secret', () => {
  const lines: string[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    app = await buildApp({
      config: { ...w.h.config, logLevel: 'trace' },
      db: w.h.deps.db,
      logger: loggerOptions({ logLevel: 'trace' }, stream),
    });
  });
  afterAll(() => app?.close());

  it('is in no response and no log line: saved, read, refused, used for a sign-in, with codes and cookies kept out of the logs too', async () => {
    const secret = w.op.clientSecret;
    const auth = { 'access-token': w.h.a.admin.token };
    const responses = [
      await app.inject({
        method: 'PUT',
        url: '/organization/sso',
        headers: auth,
        payload: { issuer: w.op.issuer, client_id: w.op.clientId, client_secret: secret, allowed_domains: ['lab.example'], enabled: true },
      }),
      await app.inject({
        method: 'PUT',
        url: '/organization/sso',
        headers: auth,
        payload: { issuer: 'ftp://x', client_id: w.op.clientId, client_secret: secret, allowed_domains: ['bad domain'], enabled: true },
      }),
      await app.inject({ method: 'PUT', url: '/organization/sso', headers: auth, payload: { client_secret: secret, unknown: secret } }),
      await app.inject({ method: 'GET', url: '/organization/sso', headers: auth }),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, 422, 422, 200]);
    // A whole sign-in through this app.
    const start = await app.inject({ method: 'GET', url: `/auth/sso/start?organization=${w.h.a.orgId}`, headers: FROM_APP });
    const flow = cookieOf(start, 'labstock_sso')!;
    w.op.signInAs = person('log-1', 'log-1@lab.example');
    const back = await w.op.authorize(String(start.headers.location));
    expect(back.origin + back.pathname).toBe(CALLBACK);
    const done = await app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie: `labstock_sso=${flow}` } });
    expect(done.statusCode).toBe(302);
    const session = cookieOf(done, 'labstock_session')!;
    expect(session).toBeTruthy();
    responses.push(start, done);
    for (const r of responses) {
      expect(r.body).not.toContain(secret);
      expect(JSON.stringify(r.headers)).not.toContain(secret);
    }
    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    expect(text).toContain('/auth/sso/callback?[redacted]');
    for (const value of [secret, back.searchParams.get('code')!, back.searchParams.get('state')!, flow, session])
      expect(text).not.toContain(value);
  });
});
