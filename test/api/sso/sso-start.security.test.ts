import { describe, expect, it } from 'vitest';
import { givePassword, signIn } from '../../helpers/sessions.js';
import { atProvider, callback, person, SIGN_IN_ERROR, start, useSsoWorld } from './_helpers.js';

// Issue 22, item 7: login CSRF through the start. Another site must not start a sign-in in the victim's browser
// (which would come back signed in to an account of the attacker's provider); and a sign-in that does not
// succeed leaves the browser's current session as it was.
const w = useSsoWorld();

const APP = 'http://labstock.test';
const refused = `${SIGN_IN_ERROR}sso_start_cross_site`;

describe('GET /auth/sso/start (security)', () => {
  it.each([
    ['a cross-site navigation (Sec-Fetch-Site)', { 'sec-fetch-site': 'cross-site' }],
    ['a same-site navigation from another host (Sec-Fetch-Site)', { 'sec-fetch-site': 'same-site' }],
    ['an older browser: another Origin', { origin: 'https://evil.example' }],
    ['an older browser: a Referer on another origin', { referer: 'https://evil.example/page' }],
    ['an older browser: no evidence at all of coming from the application', {}],
  ])('refuses %s: no flow, no provider', async (_name, headers: Record<string, string>) => {
    const s = await start(w, `organization=${w.h.a.orgId}`, headers);
    expect(s.res.statusCode).toBe(302);
    expect(s.location).toBe(refused);
    expect(s.flow).toBeUndefined();
  });

  it.each([
    ['the sign-in page (Sec-Fetch-Site: same-origin)', { 'sec-fetch-site': 'same-origin' }],
    ['an address typed or bookmarked (Sec-Fetch-Site: none)', { 'sec-fetch-site': 'none' }],
    ['an older browser with the application as Referer', { referer: `${APP}/app/sign-in` }],
  ])('starts from %s', async (_name, headers: Record<string, string>) => {
    const s = await start(w, `organization=${w.h.a.orgId}`, headers);
    expect(new URL(s.location).origin).toBe(w.op.issuer);
    expect(s.flow).toBeTruthy();
  });

  it('a refused start, or a sign-in that fails at the callback, leaves the current session alive', async () => {
    await givePassword(w.h, w.h.a.member.id);
    const session = await signIn(w.h, 'member-a@example.org');
    const cookie = `labstock_session=${session.cookie}`;
    const alive = async () => (await w.h.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie } })).json().signed_in;
    const crossSite = await w.h.app.inject({
      method: 'GET',
      url: `/auth/sso/start?organization=${w.h.a.orgId}`,
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.headers.location).toBe(refused);
    expect(await alive()).toBe(true);
    // A started sign-in refused at the callback (unverified e-mail): the session still stands.
    const s = await start(w, `organization=${w.h.a.orgId}`);
    const back = await atProvider(w, s.location, person('nobody-yet', 'stranger@lab.example', { email_verified: false }));
    const res = await callback(w, back, { labstock_sso: s.flow, labstock_session: session.cookie });
    expect(res.headers.location).toBe(`${SIGN_IN_ERROR}sso_email_unverified`);
    expect(await alive()).toBe(true);
  });
});
