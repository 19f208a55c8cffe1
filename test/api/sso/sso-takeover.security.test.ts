import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidc, type TestOidc } from '../../helpers/oidc.js';
import { givePassword, sessionCookieOf, signIn } from '../../helpers/sessions.js';
import {
  atProvider,
  CALLBACK,
  callback,
  configureSso,
  cookieOf,
  linkSso,
  person,
  SIGN_IN_ERROR,
  type SsoWorld,
  sessionOf,
  ssoSignIn,
  start,
  startSsoWorld,
} from './_helpers.js';

// Issue 22, item 1: an org admin who controls their organization's provider must not sign in as a person of
// another organization by asserting her verified e-mail. A provider signs in only the accounts it created or that
// the person linked while signed in (docs/auth.md, Single sign-on).

let w: SsoWorld;
let evil: TestOidc;
beforeAll(async () => {
  w = await startSsoWorld();
  await configureSso(w);
  evil = await startOidc({ redirectUris: [CALLBACK] });
  // Org B's admin points B's SSO at a provider they control and allows the victim's domain.
  const put = await w.h.call(w.h.b.admin.token, {
    method: 'PUT',
    url: '/organization/sso',
    payload: {
      issuer: evil.issuer,
      client_id: evil.clientId,
      client_secret: evil.clientSecret,
      allowed_domains: ['example.org'],
      enabled: true,
    },
  });
  expect(put.statusCode, put.body).toBe(200);
  await givePassword(w.h, w.h.a.member.id);
});
afterAll(async () => {
  await evil?.close();
  await w?.close();
});

const memberIdsOfB = async () =>
  (await w.h.call(w.h.b.admin.token, { method: 'GET', url: '/organization/users?per_page=100' })).json().map((u: { id: string }) => u.id);

describe('SSO account takeover (security)', () => {
  it("org B's provider asserting the verified e-mail of org A's member: no session, she is not added to org B", async () => {
    const victim = await signIn(w.h, 'member-a@example.org');
    const s = await start(w, `organization=${w.h.b.orgId}`);
    evil.signInAs = person('attacker-made', 'member-A@example.org');
    const back = await evil.authorize(s.location);
    const res = await w.h.app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie: `labstock_sso=${s.flow}` } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${SIGN_IN_ERROR}sso_account_not_linked`);
    expect(sessionCookieOf(res)).toBeNull();
    expect(await memberIdsOfB()).not.toContain(w.h.a.member.id);
    // Her own session and name are untouched.
    const mine = await w.h.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: `labstock_session=${victim.cookie}` } });
    expect(mine.json().signed_in).toBe(true);
    expect(mine.json().organizations.map((o: { id: string }) => o.id)).toEqual([w.h.a.orgId]);
    expect(mine.json().user.first_name).toBe('Max');
    // Nothing was linked or made: no identity, no account, no membership anywhere new.
    const links = await w.h.deps.db.selectFrom('sso_identities').select('user_id').where('user_id', '=', w.h.a.member.id).execute();
    expect(links).toEqual([]);
  });

  it("an organization's own provider does not sign in an existing member by e-mail alone either", async () => {
    const res = await ssoSignIn(w, person('claims-admin', 'admin-A@example.org'));
    expect(res.headers.location).toBe(`${SIGN_IN_ERROR}sso_account_not_linked`);
    expect(sessionCookieOf(res)).toBeNull();
  });

  it('a link flow finishes only in the session of the person who started it, in the same organization', async () => {
    await givePassword(w.h, w.h.a.admin.id);
    const member = await signIn(w.h, 'member-a@example.org');
    const admin = await signIn(w.h, 'admin-a@example.org');
    const started = await w.h.app.inject({
      method: 'POST',
      url: '/auth/sso/link',
      headers: { cookie: `labstock_session=${member.cookie}`, 'x-csrf-token': member.csrf },
      payload: {},
    });
    expect(started.statusCode, started.body).toBe(200);
    const back = await atProvider(w, started.json().url, person('whose-sub', 'member-A@example.org'));
    // The flow cookie reaches the callback with another person's session (or none): nothing is linked.
    const res = await callback(w, back, { labstock_sso: cookieOf(started, 'labstock_sso'), labstock_session: admin.cookie });
    expect(res.headers.location).toBe('http://labstock.test/app/settings?sso_error=sso_link_session_missing');
    expect(sessionCookieOf(res)).toBeNull();
    expect(await w.h.deps.db.selectFrom('sso_identities').select('user_id').where('subject', '=', 'whose-sub').execute()).toEqual([]);
  });

  it('a provider account linked to one person is not linked to another; starting a link needs the cookie and the CSRF token', async () => {
    const member = await signIn(w.h, 'member-a@example.org');
    const admin = await signIn(w.h, 'admin-a@example.org');
    expect((await linkSso(w, member, person('taken-sub', 'x@provider.example'))).headers.location).toBe(
      'http://labstock.test/app/settings?sso=linked',
    );
    expect((await linkSso(w, admin, person('taken-sub', 'x@provider.example'))).headers.location).toBe(
      'http://labstock.test/app/settings?sso_error=sso_identity_in_use',
    );
    expect((await sessionOf(w, await ssoSignIn(w, person('taken-sub', 'x@provider.example')))).body.user.id).toBe(w.h.a.member.id);
    const noCsrf = await w.h.app.inject({
      method: 'POST',
      url: '/auth/sso/link',
      headers: { cookie: `labstock_session=${admin.cookie}` },
      payload: {},
    });
    expect(noCsrf.statusCode).toBe(403);
    const byToken = await w.h.call(w.h.a.admin.token, { method: 'POST', url: '/auth/sso/link', payload: {} });
    expect(byToken.statusCode).toBe(401);
    // In an organization without enabled SSO there is nothing to link.
    const inB = await w.h.call(w.h.a.admin.token, { method: 'GET', url: '/organization/users' });
    expect(inB.statusCode).toBe(200);
  });
});
