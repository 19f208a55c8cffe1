import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givePassword, signIn, withSession } from '../../helpers/sessions.js';
import { configureSso, linkSso, person, SIGN_IN_ERROR, type SsoWorld, sessionOf, ssoSignIn, start, startSsoWorld } from './_helpers.js';

let w: SsoWorld;
beforeAll(async () => {
  w = await startSsoWorld();
  await givePassword(w.h, w.h.a.admin.id);
});
afterAll(() => w?.close());

describe('PUT, GET and DELETE /organization/sso (happy)', () => {
  it('sets the settings and answers them without the secret; GET answers the same', async () => {
    const body = await configureSso(w, { allowed_domains: ['Lab.Example', '@lab.example', 'other.example'] });
    expect(body).toEqual({
      issuer: w.op.issuer,
      client_id: w.op.clientId,
      client_secret_set: true,
      allowed_domains: ['lab.example', 'other.example'],
      enabled: true,
      redirect_uri: 'http://labstock.test/auth/sso/callback',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const got = await w.h.call(w.h.a.admin.token, { method: 'GET', url: '/organization/sso' });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(body);
  });

  it('an update without client_secret keeps the stored one: sign-in still works', async () => {
    const first = await configureSso(w);
    const res = await w.h.call(w.h.a.admin.token, {
      method: 'PUT',
      url: '/organization/sso',
      payload: { issuer: `${w.op.issuer}/`, client_id: w.op.clientId, allowed_domains: [], enabled: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ issuer: w.op.issuer, client_secret_set: true, allowed_domains: [], created_at: first.created_at });
    // The member links the provider to their account first (a provider signs in no existing account by e-mail alone).
    await givePassword(w.h, w.h.a.member.id);
    await linkSso(w, await signIn(w.h, 'member-a@example.org'), person('m-1', 'member-A@example.org'));
    const { body } = await sessionOf(w, await ssoSignIn(w, person('m-1', 'member-A@example.org')));
    expect(body.user.id).toBe(w.h.a.member.id);
  });

  it('a wrong client secret makes the provider refuse the code (the secret is what is sent)', async () => {
    await configureSso(w, { client_secret: 'not-the-secret' });
    try {
      const res = await ssoSignIn(w, person('m-1', 'member-A@example.org'));
      // invalid_client at the token endpoint: not the code's fault.
      expect(res.headers.location).toBe(`${SIGN_IN_ERROR}sso_provider_error`);
    } finally {
      await configureSso(w);
    }
  });

  it('an admin signed in with a session sets it with the CSRF token', async () => {
    const s = await signIn(w.h, 'admin-A@example.org');
    const res = await withSession(w.h, s, {
      method: 'PUT',
      url: '/organization/sso',
      payload: { issuer: w.op.issuer, client_id: w.op.clientId, allowed_domains: ['lab.example'], enabled: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().enabled).toBe(false);
    expect((await start(w, `organization=${w.h.a.orgId}`)).location).toBe(`${SIGN_IN_ERROR}sso_unavailable`);
    await configureSso(w);
  });

  it('DELETE removes them: 204, then GET 404 and sign-in by SSO is unavailable; sessions made by SSO go on', async () => {
    await configureSso(w);
    const made = await sessionOf(w, await ssoSignIn(w, person('m-1', 'member-A@example.org')));
    const res = await w.h.call(w.h.a.admin.token, { method: 'DELETE', url: '/organization/sso' });
    expect(res.statusCode).toBe(204);
    expect((await w.h.call(w.h.a.admin.token, { method: 'GET', url: '/organization/sso' })).statusCode).toBe(404);
    expect((await start(w, `organization=${w.h.a.orgId}`)).location).toBe(`${SIGN_IN_ERROR}sso_unavailable`);
    const still = await w.h.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: `labstock_session=${made.cookie}` } });
    expect(still.json().signed_in).toBe(true);
    // Set again, the identity linked before still names the same user.
    await configureSso(w);
    const again = await sessionOf(w, await ssoSignIn(w, person('m-1', 'changed@elsewhere.example')));
    expect(again.body.user.id).toBe(w.h.a.member.id);
  });
});
