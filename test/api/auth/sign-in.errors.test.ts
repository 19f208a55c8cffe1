import { describe, expect, it } from 'vitest';
import { setPassword } from '../../../src/accounts/auth.js';
import { systemActor } from '../../../src/shared/actor.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { givePassword, PASSWORD, sessionCookieOf, signIn, withSession } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness({}, async (h) => {
  await givePassword(h, h.a.admin.id);
});

const post = (payload: unknown, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'POST', url: '/auth/sign-in', payload: payload as object, headers });

describe('POST /auth/sign-in (errors)', () => {
  it('a wrong password is 401', async () => {
    expectError(await post({ email: 'admin-A@example.org', password: 'not the password at all' }), 401, 'unauthorized');
  });

  it('an unknown e-mail and a user without a password get the very same 401 as a wrong password', async () => {
    const bodies = [];
    for (const email of ['admin-A@example.org', 'nobody@example.org', 'member-A@example.org']) {
      const res = await post({ email, password: 'not the password at all' });
      const { request_id: _id, ...body } = expectError(res, 401, 'unauthorized');
      expect(res.headers['set-cookie']).toBeUndefined();
      bodies.push(body);
    }
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
  });

  it('an organization the user is not in is the same 401 as a wrong password', async () => {
    const res = await post({ email: 'admin-A@example.org', password: PASSWORD, organization_id: h.b.orgId });
    expectError(res, 401, 'unauthorized');
  });

  it('missing and unknown fields are 422 and named', async () => {
    expectValidation(await post({ email: 'admin-A@example.org' }), 'password');
    expectValidation(await post({ email: 'admin-A@example.org', password: PASSWORD, remember: true }), 'remember');
    expectValidation(await post({ email: 'admin-A@example.org', password: PASSWORD, organization_id: 'nope' }), 'organization_id');
  });

  it('a body that is not JSON is refused', async () => {
    expectError(await post('{"email"', { 'content-type': 'application/json' }), 400, 'invalid_json');
  });
});

describe('password policy', () => {
  it.each([
    ['short', 'too short 1', /at least 12/],
    ['common', 'Password1234', /most common/],
    ['one character', 'aaaaaaaaaaaaaa', /repeated/],
    ['a straight run', 'abcdefghijklmn', /straight run/],
    ['the e-mail', 'admin-a@example.org', /e-mail/],
  ])('refuses a password that is %s', async (_label, password, message) => {
    await expect(setPassword(h.deps.db, systemActor('cli'), h.a.admin.id, password)).rejects.toThrow(message);
  });

  it('PUT /user/password refuses a wrong current password and a weak new one, and keeps the old password', async () => {
    const s = await signIn(h, 'admin-A@example.org');
    const wrong = await withSession(h, s, {
      method: 'PUT',
      url: '/user/password',
      payload: { current_password: 'not the password at all', new_password: 'a quite different passphrase' },
    });
    expectValidation(wrong, 'current_password');
    const weak = await withSession(h, s, {
      method: 'PUT',
      url: '/user/password',
      payload: { current_password: PASSWORD, new_password: 'short' },
    });
    expectValidation(weak, 'new_password');
    await signIn(h, 'admin-A@example.org');
  });
});

describe('session routes (errors)', () => {
  it('GET /auth/session without a cookie answers signed out (200, not an error), and a token does not stand in for the cookie', async () => {
    const none = await h.app.inject({ method: 'GET', url: '/auth/session' });
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toEqual({ signed_in: false });
    expect(none.headers['cache-control']).toBe('no-store');
    expect(none.headers['set-cookie']).toBeUndefined();
    const token = await h.call(h.a.admin.token, { method: 'GET', url: '/auth/session' });
    expect(token.json()).toEqual({ signed_in: false });
    expectError(await h.call(h.a.admin.token, { method: 'POST', url: '/auth/sign-out' }), 401, 'unauthorized');
  });

  it('GET /auth/session with an unknown cookie answers signed out and clears it; from another origin it is 403', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: `labstock_session=${'x'.repeat(43)}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ signed_in: false });
    expect(sessionCookieOf(res)).toBe('');
    const s = await signIn(h, 'admin-A@example.org');
    const foreign = await withSession(h, s, { method: 'GET', url: '/auth/session', headers: { origin: 'https://evil.example' } });
    expectError(foreign, 403, 'csrf_failed');
  });

  it('an unknown or malformed cookie is 401 and the answer clears the cookie', async () => {
    for (const value of ['x'.repeat(43), 'short', '%%%']) {
      const res = await h.app.inject({ method: 'GET', url: '/user', headers: { cookie: `labstock_session=${value}` } });
      expectError(res, 401, 'unauthorized');
      expect(sessionCookieOf(res)).toBe('');
    }
  });

  it('a signed-out session is 401 on every route, and GET /auth/session says it is signed out', async () => {
    const s = await signIn(h, 'admin-A@example.org');
    expect((await withSession(h, s, { method: 'POST', url: '/auth/sign-out' })).statusCode).toBe(204);
    const check = await withSession(h, s, { method: 'GET', url: '/auth/session' });
    expect(check.json()).toEqual({ signed_in: false });
    expect(sessionCookieOf(check)).toBe('');
    for (const [method, url] of [
      ['POST', '/auth/sign-out'],
      ['GET', '/labs'],
      ['POST', '/auth/sign-out-everywhere'],
    ] as const) {
      expectError(await withSession(h, s, { method, url }), 401, 'unauthorized');
    }
  });

  it('the session cookie does not reach operator routes', async () => {
    const s = await signIn(h, 'admin-A@example.org');
    expectError(await withSession(h, s, { method: 'GET', url: '/shop/order-items' }), 403, 'forbidden');
  });
});

describe('configuration', () => {
  it('refuses an idle timeout longer than the maximum age, a bad TRUST_PROXY and a bad CORS origin', async () => {
    const { loadConfig } = await import('../../../src/shared/config.js');
    expect(() => loadConfig({ SESSION_IDLE_TIMEOUT: '2d', SESSION_MAX_AGE: '1d' })).toThrow(/SESSION_IDLE_TIMEOUT/);
    expect(() => loadConfig({ TRUST_PROXY: 'maybe please' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://ok.example.org,https://bad.example.org/path' })).toThrow(/CORS_ORIGINS/);
    const ok = loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1', CORS_ORIGINS: 'https://app.example.org' });
    expect(ok.trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(ok.corsOrigins).toEqual(['https://app.example.org']);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });
});
