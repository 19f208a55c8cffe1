import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createUser } from '../../../src/accounts/service.js';
import { systemActor } from '../../../src/shared/actor.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { givePassword, PASSWORD, type Session, sessionCookieOf, signIn, withSession } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness({}, async (h) => {
  for (const u of [h.a.admin, h.a.member, h.b.admin]) await givePassword(h, u.id);
});

describe('POST /auth/sign-in (happy)', () => {
  it('sets an HttpOnly, SameSite=Lax session cookie (not Secure on http) and returns the session with its CSRF token', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      payload: { email: 'member-A@example.org', password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^labstock_session=[\w-]{43}; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/');
    expect(Number(/Max-Age=(\d+)/.exec(setCookie)?.[1])).toBeGreaterThan(14 * 86_400 - 60);
    expect(setCookie).not.toContain('Secure');
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.user).toEqual({ id: h.a.member.id, first_name: 'Max', last_name: 'MemberA', email: 'member-a@example.org' });
    expect(body.organization).toEqual({ id: h.a.orgId, name: 'Org A', role: 'member' });
    expect(body.organizations).toEqual([{ id: h.a.orgId, name: 'Org A', role: 'member' }]);
    expect(body.csrf_token).toMatch(/^[\w-]{43}$/);
    const expires = Date.parse(body.expires_at);
    expect(expires - Date.now()).toBeGreaterThan(14 * 86_400_000 - 60_000);
    expect(Date.parse(body.idle_expires_at) - Date.now()).toBeGreaterThan(12 * 3_600_000 - 60_000);
    expect(Date.parse(body.idle_expires_at) - Date.now()).toBeLessThanOrEqual(12 * 3_600_000);
  });

  it('the e-mail is matched whatever its case and surrounding spaces', async () => {
    const s = await signIn(h, '  ADMIN-a@Example.ORG ');
    expect(s.body.user.id).toBe(h.a.admin.id);
    expect(s.body.organization.role).toBe('admin');
  });

  it('a session acts exactly as the same user’s token: same user, same labs, same items', async () => {
    const s = await signIn(h, 'member-A@example.org');
    for (const url of ['/user', '/labs', '/inventory-items', '/order-requests', '/types']) {
      const bySession = await withSession(h, s, { method: 'GET', url });
      const byToken = await h.call(h.a.member.token, { method: 'GET', url });
      expect(bySession.statusCode, url).toBe(200);
      expect(bySession.json(), url).toEqual(byToken.json());
      expect(bySession.headers['x-total-count'], url).toBe(byToken.headers['x-total-count']);
    }
    // The member is refused webhook management exactly as their token is.
    expect((await withSession(h, s, { method: 'GET', url: '/webhooks' })).statusCode).toBe(403);
  });

  it('writes with the session cookie and the CSRF token', async () => {
    const s = await signIn(h, 'admin-A@example.org');
    const res = await withSession(h, s, { method: 'PUT', url: `/inventory-items/${h.a.legacyLab.itemId}`, payload: { quantity: '7' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().quantity).toBe('7');
  });

  it('a matching Origin stands in for the CSRF token', async () => {
    const s = await signIn(h, 'admin-A@example.org');
    const res = await withSession(
      h,
      s,
      {
        method: 'PUT',
        url: `/inventory-items/${h.a.legacyLab.itemId}`,
        payload: { quantity: '8' },
        headers: { origin: 'http://labstock.test' },
      },
      { csrf: false },
    );
    expect(res.statusCode, res.body).toBe(200);
  });

  it('signs in to the organization asked for, and to the oldest membership by default', async () => {
    const org = await createOrganization(h.deps.db, systemActor('cli'), { name: 'Second org' });
    await createUser(h.deps.db, systemActor('cli'), {
      organizationId: org.id,
      email: 'member-A@example.org',
      firstName: 'Max',
      lastName: 'MemberA',
      role: 'admin',
    });
    const byDefault = await signIn(h, 'member-A@example.org');
    expect(byDefault.body.organization.id).toBe(h.a.orgId);
    expect(byDefault.body.organizations.map((o: { id: string }) => o.id)).toEqual([h.a.orgId, org.id]);
    const chosen = await signIn(h, 'member-A@example.org', PASSWORD, { organization_id: org.id });
    expect(chosen.body.organization).toEqual({ id: org.id, name: 'Second org', role: 'admin' });
    const labs = await withSession(h, chosen, { method: 'GET', url: '/labs' });
    expect(labs.json()).toEqual([]);
  });
});

describe('GET /auth/session (happy)', () => {
  it('returns the same session description as sign-in, and no new cookie', async () => {
    const s = await signIn(h, 'admin-A@example.org');
    const res = await withSession(h, s, { method: 'GET', url: '/auth/session' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    const { idle_expires_at: _a, ...rest } = res.json();
    const { idle_expires_at: _b, ...signedIn } = s.body;
    expect(rest).toEqual(signedIn);
    expect(rest.signed_in).toBe(true);
  });
});

describe('POST /auth/sign-out and /auth/sign-out-everywhere (happy)', () => {
  it('sign-out ends this session only and clears the cookie', async () => {
    const one = await signIn(h, 'admin-A@example.org');
    const two = await signIn(h, 'admin-A@example.org');
    const res = await withSession(h, one, { method: 'POST', url: '/auth/sign-out' });
    expect(res.statusCode, res.body).toBe(204);
    expect(sessionCookieOf(res)).toBe('');
    expect(String(res.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await withSession(h, one, { method: 'GET', url: '/user' })).statusCode).toBe(401);
    expect((await withSession(h, two, { method: 'GET', url: '/user' })).statusCode).toBe(200);
  });

  it('sign-out-everywhere ends every session of the user; tokens and other users’ sessions go on', async () => {
    const mine = [await signIn(h, 'admin-A@example.org'), await signIn(h, 'admin-A@example.org')];
    const other = await signIn(h, 'member-A@example.org');
    const res = await withSession(h, mine[0]!, { method: 'POST', url: '/auth/sign-out-everywhere' });
    expect(res.statusCode, res.body).toBe(204);
    for (const s of mine) expect((await withSession(h, s, { method: 'GET', url: '/user' })).statusCode).toBe(401);
    expect((await withSession(h, other, { method: 'GET', url: '/user' })).statusCode).toBe(200);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: '/user' })).statusCode).toBe(200);
  });
});

describe('session lifetime', () => {
  it('a new sign-in gets a new session id and ends the session the browser brought', async () => {
    const first = await signIn(h, 'admin-A@example.org');
    const res = await h.app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      payload: { email: 'admin-A@example.org', password: PASSWORD },
      headers: { cookie: `labstock_session=${first.cookie}` },
    });
    expect(res.statusCode).toBe(200);
    const second = sessionCookieOf(res)!;
    expect(second).not.toBe(first.cookie);
    expect(res.json().csrf_token).not.toBe(first.csrf);
    expect((await withSession(h, first, { method: 'GET', url: '/user' })).statusCode).toBe(401);
    expect((await withSession(h, { cookie: second, csrf: '' }, { method: 'GET', url: '/user' })).statusCode).toBe(200);
  });

  it('Secure is added when APP_URL is https', async () => {
    const secure = await startHarness({ APP_URL: 'https://labstock.example.org' });
    try {
      await givePassword(secure, secure.a.member.id);
      const res = await secure.app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        payload: { email: 'member-A@example.org', password: PASSWORD },
      });
      expect(String(res.headers['set-cookie'])).toMatch(/; Secure$/);
    } finally {
      await secure.close();
    }
  });
});

describe('idle expiry, absolute expiry and rotation', () => {
  let short: Harness;
  beforeAll(async () => {
    short = await startHarness({ SESSION_IDLE_TIMEOUT: '1500ms', SESSION_MAX_AGE: '3s', SESSION_ROTATE: '1s' });
    await givePassword(short, short.a.member.id);
  });
  afterAll(() => short?.close());
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('a session unused for longer than SESSION_IDLE_TIMEOUT ends', async () => {
    const s = await signIn(short, 'member-A@example.org');
    expect((await withSession(short, s, { method: 'GET', url: '/user' })).statusCode).toBe(200);
    await sleep(1700);
    const res = await withSession(short, s, { method: 'GET', url: '/user' });
    expect(res.statusCode).toBe(401);
    expect(sessionCookieOf(res)).toBe('');
  });

  it('rotation replaces the cookie value, the old one works only for a short grace, and the CSRF token stays', async () => {
    const s: Session = await signIn(short, 'member-A@example.org');
    await sleep(1100);
    const res = await withSession(short, s, { method: 'GET', url: '/user' });
    expect(res.statusCode).toBe(200);
    const rotated = sessionCookieOf(res);
    expect(rotated).toBeTruthy();
    expect(rotated).not.toBe(s.cookie);
    // In flight with the old value: still accepted within the grace.
    expect((await withSession(short, s, { method: 'GET', url: '/user' })).statusCode).toBe(200);
    const next = { cookie: rotated!, csrf: s.csrf };
    const write = await withSession(short, next, {
      method: 'PUT',
      url: `/inventory-items/${short.a.legacyLab.itemId}`,
      payload: { quantity: '2' },
    });
    expect(write.statusCode, write.body).toBe(200);
  });

  it('a session ends at SESSION_MAX_AGE even while in use', async () => {
    const s = await signIn(short, 'member-A@example.org');
    let current = s.cookie;
    for (let i = 0; i < 5; i++) {
      await sleep(500);
      const res = await withSession(short, { cookie: current, csrf: s.csrf }, { method: 'GET', url: '/user' });
      expect(res.statusCode).toBe(200);
      current = sessionCookieOf(res) || current;
    }
    await sleep(700);
    expect((await withSession(short, { cookie: current, csrf: s.csrf }, { method: 'GET', url: '/user' })).statusCode).toBe(401);
  });
});

describe('PUT /user/password (happy)', () => {
  it('changes the password, ends the other sessions and keeps this one', async () => {
    const here = await signIn(h, 'member-A@example.org');
    const elsewhere = await signIn(h, 'member-A@example.org');
    const next = 'a quite different passphrase';
    const res = await withSession(h, here, {
      method: 'PUT',
      url: '/user/password',
      payload: { current_password: PASSWORD, new_password: next },
    });
    expect(res.statusCode, res.body).toBe(204);
    expect((await withSession(h, here, { method: 'GET', url: '/user' })).statusCode).toBe(200);
    expect((await withSession(h, elsewhere, { method: 'GET', url: '/user' })).statusCode).toBe(401);
    await signIn(h, 'member-A@example.org', next);
    const old = await h.app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      payload: { email: 'member-A@example.org', password: PASSWORD },
    });
    expect(old.statusCode).toBe(401);
    await givePassword(h, h.a.member.id);
  });
});
