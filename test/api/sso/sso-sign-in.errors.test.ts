import { describe, expect, it } from 'vitest';
import { expectValidation } from '../../helpers/errors.js';
import { givePassword, sessionCookieOf, signIn } from '../../helpers/sessions.js';
import {
  atProvider,
  CALLBACK,
  callback,
  configureSso,
  FROM_APP,
  linkSso,
  person,
  SIGN_IN_ERROR,
  sessionOf,
  ssoSignIn,
  start,
  useSsoWorld,
} from './_helpers.js';

const w = useSsoWorld();

const userCount = async () =>
  (
    await w.h.deps.db
      .selectFrom('users')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

/** A refusal: back to the sign-in page with the code, no session cookie, and the flow cookie cleared. */
function expectRefused(res: Awaited<ReturnType<typeof callback>>, code: string) {
  expect(res.statusCode, res.body).toBe(302);
  expect(res.headers.location).toBe(`${SIGN_IN_ERROR}${code}`);
  expect(sessionCookieOf(res)).toBeNull();
}

describe('GET /auth/sso/callback (refusals)', () => {
  it('a wrong state is refused, and the code is never redeemed', async () => {
    const s = await start(w, `organization=${w.h.a.orgId}`);
    const back = await atProvider(w, s.location, person('member-a-sub', 'member-A@example.org'));
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-the-state-of-this-browser');
    expectRefused(await callback(w, forged, { labstock_sso: s.flow }), 'sso_state_mismatch');
    // The flow was used up by that attempt: the right state with the same cookie is refused too.
    expectRefused(await callback(w, back, { labstock_sso: s.flow }), 'sso_flow_missing');
  });

  it('a replayed code is refused: the same callback twice, and the code carried into a new sign-in', async () => {
    const s = await start(w, `organization=${w.h.a.orgId}`);
    const back = await atProvider(w, s.location, person('replay-sub', 'replay@lab.example'));
    await sessionOf(w, await callback(w, back, { labstock_sso: s.flow }));
    expectRefused(await callback(w, back, { labstock_sso: s.flow }), 'sso_flow_missing');
    // A new flow in this browser, with the old code under the new state: the provider refuses the used code.
    const next = await start(w, `organization=${w.h.a.orgId}`);
    const replay = new URL(back);
    replay.searchParams.set('state', new URL(next.location).searchParams.get('state')!);
    expectRefused(await callback(w, replay, { labstock_sso: next.flow }), 'sso_code_rejected');
  });

  it('a code issued for another flow (another PKCE verifier) is refused even before its first use', async () => {
    const theirs = await start(w, `organization=${w.h.a.orgId}`);
    const stolen = await atProvider(w, theirs.location, person('member-a-sub', 'member-A@example.org'));
    const mine = await start(w, `organization=${w.h.a.orgId}`);
    const url = new URL(stolen);
    url.searchParams.set('state', new URL(mine.location).searchParams.get('state')!);
    expectRefused(await callback(w, url, { labstock_sso: mine.flow }), 'sso_code_rejected');
  });

  it('a callback without a started flow is refused: no cookie, an unknown cookie', async () => {
    const s = await start(w, `organization=${w.h.a.orgId}`);
    const back = await atProvider(w, s.location, person('member-a-sub', 'member-A@example.org'));
    expectRefused(await callback(w, back), 'sso_flow_missing');
    expectRefused(await callback(w, back, { labstock_sso: 'x'.repeat(43) }), 'sso_flow_missing');
    expectRefused(await callback(w, '/auth/sso/callback'), 'sso_flow_missing');
  });

  it('an unverified e-mail is refused and creates nobody, even in an allowed domain', async () => {
    const before = await userCount();
    const res = await ssoSignIn(w, person('unverified-1', 'unverified@lab.example', { email_verified: false }));
    expectRefused(res, 'sso_email_unverified');
    // Nor is an existing member matched by an unverified address.
    expectRefused(await ssoSignIn(w, person('unverified-2', 'member-A@example.org', { email_verified: false })), 'sso_email_unverified');
    expect(await userCount()).toBe(before);
  });

  it('an e-mail of a domain that is not allowed gets no account', async () => {
    const before = await userCount();
    expectRefused(await ssoSignIn(w, person('stranger-1', 'stranger@elsewhere.example')), 'sso_domain_not_allowed');
    // A look-alike of an allowed domain is not allowed either.
    expectRefused(await ssoSignIn(w, person('stranger-2', 'x@evil-lab.example')), 'sso_domain_not_allowed');
    expectRefused(await ssoSignIn(w, person('stranger-3', 'x@sub.lab.example')), 'sso_domain_not_allowed');
    expect(await userCount()).toBe(before);
  });

  it('a deactivated member is refused by an identity linked before; by e-mail alone nobody is signed in anyway', async () => {
    await givePassword(w.h, w.h.a.outsider.id);
    const linked = await linkSso(w, await signIn(w.h, 'outsider-a@example.org'), person('outsider-sub', 'outsider-A@example.org'));
    expect(linked.headers.location).toBe('http://labstock.test/app/settings?sso=linked');
    await sessionOf(w, await ssoSignIn(w, person('outsider-sub', 'outsider-A@example.org')));
    const off = await w.h.call(w.h.a.admin.token, {
      method: 'PUT',
      url: `/organization/users/${w.h.a.outsider.id}`,
      payload: { active: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    expectRefused(await ssoSignIn(w, person('outsider-sub', 'outsider-A@example.org')), 'sso_account_deactivated');
    expectRefused(await ssoSignIn(w, person('outsider-other-sub', 'outsider-A@example.org')), 'sso_account_not_linked');
  });

  it('an error from the provider is refused', async () => {
    const s = await start(w, `organization=${w.h.a.orgId}`);
    const state = new URL(s.location).searchParams.get('state')!;
    const res = await callback(w, `/auth/sso/callback?error=access_denied&state=${state}`, { labstock_sso: s.flow });
    expectRefused(res, 'sso_provider_error');
  });

  it('SSO turned off between start and callback refuses the callback', async () => {
    const s = await start(w, `organization=${w.h.a.orgId}`);
    const back = await atProvider(w, s.location, person('member-a-sub', 'member-A@example.org'));
    await configureSso(w, { enabled: false });
    try {
      expectRefused(await callback(w, back, { labstock_sso: s.flow }), 'sso_unavailable');
    } finally {
      await configureSso(w);
    }
  });
});

describe('GET /auth/sso/start (refusals)', () => {
  it('disabled SSO, an organization without SSO, an unknown organization and an unconfigured domain redirect with sso_unavailable', async () => {
    await configureSso(w, { enabled: false });
    try {
      for (const query of [
        `organization=${w.h.a.orgId}`,
        'email=someone%40lab.example',
        `organization=${w.h.b.orgId}`,
        'organization=0190a0a0-0000-7000-8000-000000000000',
        'email=x%40example.org',
      ]) {
        const s = await start(w, query);
        expect(s.res.statusCode, query).toBe(302);
        expect(s.location, query).toBe(`${SIGN_IN_ERROR}sso_unavailable`);
        expect(s.flow, query).toBeUndefined();
      }
    } finally {
      await configureSso(w);
    }
  });

  it('a provider that cannot be reached redirects with sso_provider_error', async () => {
    // A port nothing listens on (the provider's own, after a restart elsewhere): discovery fails.
    await configureSso(w, { issuer: 'http://127.0.0.1:9' });
    try {
      const s = await start(w, `organization=${w.h.a.orgId}`);
      expect(s.location).toBe(`${SIGN_IN_ERROR}sso_provider_error`);
    } finally {
      await configureSso(w);
    }
  });

  it('422 without exactly one of organization and email, for a malformed organization id, and for a return_to off this server', async () => {
    for (const query of ['', `organization=${w.h.a.orgId}&email=a%40lab.example`]) {
      expectValidation(await w.h.app.inject({ method: 'GET', url: `/auth/sso/start?${query}`, headers: FROM_APP }), 'organization');
    }
    expectValidation(await w.h.app.inject({ method: 'GET', url: '/auth/sso/start?organization=nope', headers: FROM_APP }), 'organization');
    for (const target of ['//evil.example/app', '/\\evil.example', 'https://evil.example/', 'app/', '/app/\nx']) {
      const url = `/auth/sso/start?organization=${w.h.a.orgId}&return_to=${encodeURIComponent(target)}`;
      expectValidation(await w.h.app.inject({ method: 'GET', url, headers: FROM_APP }), 'return_to');
    }
  });

  it('the callback URL the provider is given is APP_URL’s', async () => {
    const s = await start(w, `organization=${w.h.a.orgId}`);
    expect(new URL(s.location).searchParams.get('redirect_uri')).toBe(CALLBACK);
  });
});
