import { describe, expect, it } from 'vitest';
import { createUser } from '../../../src/accounts/service.js';
import { systemActor } from '../../../src/shared/actor.js';
import { givePassword, sessionCookieOf, signIn } from '../../helpers/sessions.js';
import { atProvider, callback, linkSso, person, sessionOf, ssoSignIn, start, useSsoWorld } from './_helpers.js';

const w = useSsoWorld();

describe('GET /auth/sso/start (happy)', () => {
  it('redirects to the provider with code flow, PKCE S256, state and nonce, and sets an HttpOnly flow cookie', async () => {
    const s = await start(w, `organization=${w.h.a.orgId}`);
    expect(s.res.statusCode).toBe(302);
    const url = new URL(s.location);
    expect(url.origin).toBe(w.op.issuer);
    const q = url.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(w.op.clientId);
    expect(q.get('redirect_uri')).toBe('http://labstock.test/auth/sso/callback');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(q.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(q.get('scope')).toBe('openid email profile');
    const line = String(s.res.headers['set-cookie']);
    expect(line).toMatch(/^labstock_sso=[\w-]{43}; Path=\/auth\/sso; Max-Age=600; HttpOnly; SameSite=Lax$/);
    expect(s.res.headers['cache-control']).toBe('no-store');
  });
});

describe('GET /auth/sso/callback (happy)', () => {
  it('an existing member links the provider while signed in with their password, then signs in through it', async () => {
    await givePassword(w.h, w.h.a.member.id);
    const password = await signIn(w.h, 'member-a@example.org');
    expect(
      (await w.h.app.inject({ method: 'GET', url: '/auth/sso/link', headers: { cookie: `labstock_session=${password.cookie}` } })).json(),
    ).toEqual({
      available: true,
      linked: false,
    });
    // Linked under another address at the provider: the person proved both sides, the e-mails need not match.
    const link = await linkSso(w, password, person('member-a-sub', 'max@provider.example', { email_verified: false }));
    expect(link.statusCode, link.body).toBe(302);
    expect(link.headers.location).toBe('http://labstock.test/app/settings?sso=linked');
    expect(sessionCookieOf(link)).toBeNull();
    // Still signed in with the same session, now linked.
    const state = await w.h.app.inject({
      method: 'GET',
      url: '/auth/sso/link',
      headers: { cookie: `labstock_session=${password.cookie}` },
    });
    expect(state.json()).toEqual({ available: true, linked: true });
    const res = await ssoSignIn(w, person('member-a-sub', 'max@provider.example', { email_verified: false }));
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('http://labstock.test/app/');
    expect(res.headers['cache-control']).toBe('no-store');
    const setCookies = ([] as string[]).concat(res.headers['set-cookie'] as string[]);
    expect(setCookies.find((c) => c.startsWith('labstock_session='))).toMatch(/; HttpOnly; SameSite=Lax$/);
    expect(setCookies.find((c) => c.startsWith('labstock_sso='))).toContain('Max-Age=0');
    const { body, cookie } = await sessionOf(w, res);
    expect(body.user).toEqual({ id: w.h.a.member.id, first_name: 'Max', last_name: 'MemberA', email: 'member-a@example.org' });
    expect(body.organization).toEqual({ id: w.h.a.orgId, name: 'Org A', role: 'member' });
    // A session like any other: it reads and, with the CSRF token, writes.
    const labs = await w.h.app.inject({ method: 'GET', url: '/labs', headers: { cookie: `labstock_session=${cookie}` } });
    expect(labs.statusCode).toBe(200);
  });

  it('an invited person is not signed in by the provider before they accepted and linked: they stay invited', async () => {
    const invited = await w.h.call(w.h.a.admin.token, {
      method: 'POST',
      url: '/organization/users',
      payload: { email: 'ines@example.org' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const listed = async () =>
      (await w.h.call(w.h.a.admin.token, { method: 'GET', url: '/organization/users?per_page=100' }))
        .json()
        .find((u: { id: string }) => u.id === invited.json().id).invitation_expires_at;
    expect(await listed()).toBe(invited.json().invitation.expires_at);
    const res = await ssoSignIn(w, person('ines-sub', 'ines@example.org'));
    expect(res.headers.location).toBe('http://labstock.test/app/sign-in?error=sso_account_not_linked');
    expect(sessionCookieOf(res)).toBeNull();
    expect(await listed()).toBe(invited.json().invitation.expires_at);
  });

  it('the same subject signs in as the same user after the provider changed their e-mail', async () => {
    await givePassword(w.h, w.h.a.admin.id);
    await linkSso(w, await signIn(w.h, 'admin-a@example.org'), person('admin-a-sub', 'admin-A@example.org'));
    const res = await ssoSignIn(w, person('admin-a-sub', 'renamed-admin@elsewhere.example', { email_verified: false }));
    const { body } = await sessionOf(w, res);
    expect(body.user.id).toBe(w.h.a.admin.id);
    expect(body.organization.role).toBe('admin');
  });

  it('creates a member at the first sign-in of an allowed domain, with the provider’s names, and links the subject', async () => {
    const res = await ssoSignIn(w, person('new-1', 'New.Person@Lab.Example', { given_name: 'Nora', family_name: 'New' }));
    const { body } = await sessionOf(w, res);
    expect(body.user).toMatchObject({ email: 'new.person@lab.example', first_name: 'Nora', last_name: 'New' });
    expect(body.organization).toEqual({ id: w.h.a.orgId, name: 'Org A', role: 'member' });
    const users = await w.h.call(w.h.a.admin.token, { method: 'GET', url: '/organization/users?per_page=100' });
    expect(users.json().filter((u: { email: string }) => u.email === 'new.person@lab.example')).toHaveLength(1);
    // Again: the same user, no second account.
    const again = await sessionOf(w, await ssoSignIn(w, person('new-1', 'new.person@lab.example')));
    expect(again.body.user.id).toBe(body.user.id);
  });

  it('finds the organization by the e-mail domain, and lands on a return_to path', async () => {
    const s = await start(w, `email=${encodeURIComponent('someone@lab.example')}&return_to=${encodeURIComponent('/app/items?lab=1')}`);
    expect(s.res.statusCode).toBe(302);
    const back = await atProvider(w, s.location, person('dom-1', 'someone@lab.example', { given_name: undefined, family_name: undefined }));
    const res = await callback(w, back, { labstock_sso: s.flow });
    expect(res.headers.location).toBe('http://labstock.test/app/items?lab=1');
    const { body } = await sessionOf(w, res);
    expect(body.user).toMatchObject({ email: 'someone@lab.example', first_name: 'someone', last_name: '-' });
  });

  it('never adds a user of another organization to this one, even when their domain is allowed', async () => {
    await createUser(w.h.deps.db, systemActor('cli'), {
      organizationId: w.h.b.orgId,
      email: 'both@lab.example',
      firstName: 'Bo',
      lastName: 'Th',
      role: 'admin',
    });
    const res = await ssoSignIn(w, person('both-1', 'both@lab.example'));
    expect(res.headers.location).toBe('http://labstock.test/app/sign-in?error=sso_account_not_linked');
    expect(sessionCookieOf(res)).toBeNull();
    const users = await w.h.call(w.h.a.admin.token, { method: 'GET', url: '/organization/users?per_page=100' });
    expect(users.json().map((u: { email: string }) => u.email)).not.toContain('both@lab.example');
  });

  it('ends the session the browser had before', async () => {
    const first = await sessionOf(w, await ssoSignIn(w, person('member-a-sub', 'member-A@example.org')));
    const s = await start(w, `organization=${w.h.a.orgId}`);
    const back = await atProvider(w, s.location, person('member-a-sub', 'member-A@example.org'));
    const res = await callback(w, back, { labstock_sso: s.flow, labstock_session: first.cookie });
    await sessionOf(w, res);
    const old = await w.h.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: `labstock_session=${first.cookie}` } });
    expect(old.json()).toEqual({ signed_in: false });
  });
});
