import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../../src/server/app.js';
import { expectError } from '../helpers/errors.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { givePassword, PASSWORD, sessionCookieOf, signIn, withSession } from '../helpers/sessions.js';

// Deployment settings (TRUST_PROXY, CORS_ORIGINS) and the secrets of sign-in kept out of the logs.

describe('CORS_ORIGINS', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ CORS_ORIGINS: 'https://app.example.org' });
    await givePassword(h, h.a.admin.id);
  });
  afterAll(() => h?.close());

  const preflight = (origin: string) =>
    h.app.inject({
      method: 'OPTIONS',
      url: '/labs',
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'access-token' },
    });

  it('a listed origin may call with a token: the preflight and the answer allow it, never with credentials', async () => {
    const pre = await preflight('https://app.example.org');
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('https://app.example.org');
    expect(String(pre.headers['access-control-allow-headers'])).toMatch(/Access-Token/i);
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
    const res = await h.call(h.a.admin.token, { method: 'GET', url: '/labs', headers: { origin: 'https://app.example.org' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.org');
    expect(String(res.headers['access-control-expose-headers'])).toMatch(/X-Total-Count/);
  });

  it('another origin gets no CORS headers', async () => {
    const pre = await preflight('https://evil.example');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const res = await h.call(h.a.admin.token, { method: 'GET', url: '/labs', headers: { origin: 'https://evil.example' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a listed origin cannot use the session cookie', async () => {
    const s = await signIn(h, 'admin-A@example.org');
    const res = await withSession(h, s, { method: 'GET', url: '/labs', headers: { origin: 'https://app.example.org' } });
    expectError(res, 403, 'csrf_failed');
  });

  it('without CORS_ORIGINS no origin gets CORS headers', async () => {
    const plain = await startHarness();
    try {
      const res = await plain.call(plain.a.admin.token, { method: 'GET', url: '/labs', headers: { origin: 'https://app.example.org' } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});

describe('TRUST_PROXY', () => {
  it('off (the default): X-Forwarded-* change nothing', async () => {
    const h = await startHarness();
    try {
      await givePassword(h, h.a.admin.id);
      const res = await h.app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        payload: { email: 'admin-A@example.org', password: PASSWORD },
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.example.org' },
      });
      expect(String(res.headers['set-cookie'])).not.toContain('Secure');
      const labs = await h.call(h.a.admin.token, { method: 'GET', url: '/labs', headers: { 'x-forwarded-host': 'public.example.org' } });
      expect(labs.headers.link).toContain('<http://labstock.test/labs?');
      // Throttling counts the connection's address, whatever X-Forwarded-For claims.
      for (let i = 0; i < 20; i++) {
        const r = await h.app.inject({
          method: 'POST',
          url: '/auth/sign-in',
          payload: { email: `spray-${i}@example.org`, password: 'not the password at all' },
          headers: { 'x-forwarded-for': `192.0.2.${i}` },
        });
        expect(r.statusCode).toBe(401);
      }
      const locked = await h.app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        payload: { email: 'admin-A@example.org', password: PASSWORD },
        headers: { 'x-forwarded-for': '192.0.2.200' },
      });
      expectError(locked, 429, 'rate_limited');
    } finally {
      await h.close();
    }
  });

  it('on: Secure cookies, links and the throttled address follow X-Forwarded-*', async () => {
    const h = await startHarness({ TRUST_PROXY: 'true' });
    try {
      await givePassword(h, h.a.admin.id);
      const res = await h.app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        payload: { email: 'admin-A@example.org', password: PASSWORD },
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '192.0.2.1' },
      });
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['set-cookie'])).toMatch(/; Secure$/);
      const labs = await h.call(h.a.admin.token, {
        method: 'GET',
        url: '/labs?per_page=1',
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.example.org' },
      });
      expect(labs.headers.link).toContain('<https://public.example.org/labs?');
      for (let i = 0; i < 20; i++) {
        const r = await h.app.inject({
          method: 'POST',
          url: '/auth/sign-in',
          payload: { email: `spray-${i}@example.org`, password: 'not the password at all' },
          headers: { 'x-forwarded-for': '192.0.2.50' },
        });
        expect(r.statusCode).toBe(401);
      }
      const sprayer = { 'x-forwarded-for': '192.0.2.50' };
      const other = { 'x-forwarded-for': '192.0.2.51' };
      const payload = { email: 'admin-A@example.org', password: PASSWORD };
      expectError(await h.app.inject({ method: 'POST', url: '/auth/sign-in', payload, headers: sprayer }), 429, 'rate_limited');
      expect((await h.app.inject({ method: 'POST', url: '/auth/sign-in', payload, headers: other })).statusCode).toBe(200);
    } finally {
      await h.close();
    }
  });
});

describe('logs', () => {
  let h: Harness;
  const lines: string[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    h = await startHarness();
    await givePassword(h, h.a.admin.id);
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = { ...h.config, logLevel: 'trace', sessionRotateMs: 1 };
    app = await buildApp({ config, db: h.deps.db, logger: loggerOptions({ logLevel: 'trace' }, stream) });
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  it('never contain a password, a session cookie value, a CSRF token or a new token', async () => {
    const wrong = 'a wrong password, logged nowhere';
    await app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: 'admin-A@example.org', password: wrong } });
    await app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: 'admin-A@example.org', password: '{"broken' } });
    const signedIn = await app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      payload: { email: 'admin-A@example.org', password: PASSWORD },
    });
    const cookie = sessionCookieOf(signedIn)!;
    const csrf = signedIn.json().csrf_token as string;
    const headers = { cookie: `labstock_session=${cookie}`, 'x-csrf-token': csrf };
    // Rotates on this request (rotation after 1 ms): the new cookie value is in a Set-Cookie header. The wait makes
    // sure that millisecond has passed: a fast machine answered sign-in and this request within the same one.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const rotated = await app.inject({ method: 'GET', url: '/user', headers });
    const newCookie = sessionCookieOf(rotated)!;
    expect(newCookie).toBeTruthy();
    const created = await app.inject({
      method: 'POST',
      url: '/user/tokens',
      payload: { name: 'ci' },
      headers: { cookie: `labstock_session=${newCookie}`, 'x-csrf-token': csrf },
    });
    expect(created.statusCode, created.body).toBe(201);
    const token = created.json().token as string;
    await app.inject({ method: 'GET', url: '/labs', headers: { 'access-token': token } });
    await app.inject({
      method: 'PUT',
      url: '/user/password',
      headers: { 'access-token': token },
      payload: { current_password: PASSWORD, new_password: wrong },
    });
    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    for (const secret of [PASSWORD, wrong, cookie, newCookie, csrf, token]) expect(text).not.toContain(secret);
  });
});
