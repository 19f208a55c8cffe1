import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { startHarness } from '../../helpers/harness.js';
import { startOidc } from '../../helpers/oidc.js';
import { sessionCookieOf } from '../../helpers/sessions.js';
import {
  atProvider,
  callback,
  cookieOf,
  FROM_APP,
  person,
  SIGN_IN_ERROR,
  sessionOf,
  ssoSignIn,
  start,
  useSsoWorld,
  verifyDomains,
} from './_helpers.js';

const w = useSsoWorld();

describe('SSO sign-in (security)', () => {
  it("login CSRF: an attacker's own callback URL opened in a victim's browser signs nobody in", async () => {
    const attacker = await start(w, `organization=${w.h.a.orgId}`);
    const theirs = await atProvider(w, attacker.location, person('attacker', 'attacker@lab.example'));
    // The victim never started a sign-in: no flow cookie.
    const bare = await callback(w, theirs);
    expect(bare.headers.location).toBe(`${SIGN_IN_ERROR}sso_flow_missing`);
    expect(sessionCookieOf(bare)).toBeNull();
    // The victim started one of their own: their flow's state is not the attacker's.
    const victim = await start(w, `organization=${w.h.a.orgId}`);
    const res = await callback(w, theirs, { labstock_sso: victim.flow });
    expect(res.headers.location).toBe(`${SIGN_IN_ERROR}sso_state_mismatch`);
    expect(sessionCookieOf(res)).toBeNull();
    // And the attacker's flow is still theirs alone to finish.
    await sessionOf(w, await callback(w, theirs, { labstock_sso: attacker.flow }));
  });

  it("an ID token whose signature does not verify against the provider's published keys signs nobody in", async () => {
    // Issue 22, item 12: the JWKS is fetched and the ID token's signature checked (docs/auth.md, Single sign-on).
    w.op.publishForeignKeys = true;
    try {
      const res = await ssoSignIn(w, person('forged-sub', 'forged-sub@lab.example'));
      expect(res.headers.location).toBe(`${SIGN_IN_ERROR}sso_provider_error`);
      expect(sessionCookieOf(res)).toBeNull();
      expect(w.op.jwksFetches).toBeGreaterThan(0);
    } finally {
      w.op.publishForeignKeys = false;
    }
    // With the right keys published, the same person signs in (an address with no account: created at once).
    await sessionOf(w, await ssoSignIn(w, person('forged-sub', 'forged-sub@lab.example')));
  });

  it('an identity linked in one organization counts in no other; a session from org B’s SSO acts in org B only', async () => {
    const other = await startOidc({ redirectUris: ['http://labstock.test/auth/sso/callback'] });
    try {
      const put = await w.h.call(w.h.b.admin.token, {
        method: 'PUT',
        url: '/organization/sso',
        payload: {
          issuer: other.issuer,
          client_id: other.clientId,
          client_secret: other.clientSecret,
          // A domain is claimed by one organization only: org A holds lab.example.
          allowed_domains: ['b-lab.example'],
          enabled: true,
        },
      });
      expect(put.statusCode, put.body).toBe(200);
      await verifyDomains(w, w.h.b.admin.token);
      const s = await start(w, `organization=${w.h.b.orgId}`);
      other.signInAs = person('shared-sub', 'shared@b-lab.example');
      const res = await callback(w, await other.authorize(s.location), { labstock_sso: s.flow });
      const { body, cookie } = await sessionOf(w, res);
      expect(body.organization.id).toBe(w.h.b.orgId);
      expect(body.organizations.map((o: { id: string }) => o.id)).toEqual([w.h.b.orgId]);
      const labs = await w.h.app.inject({ method: 'GET', url: '/labs', headers: { cookie: `labstock_session=${cookie}` } });
      expect(labs.body).not.toContain(w.h.a.legacyLab.id);
      // In org A the same subject is a stranger: no link there, and its unverified address matches nobody.
      const inA = await ssoSignIn(w, person('shared-sub', 'shared@b-lab.example', { email_verified: false }));
      expect(inA.headers.location).toBe(`${SIGN_IN_ERROR}sso_email_unverified`);
      // A flow started for org B never ends in org A, whatever provider answers.
      const forB = await start(w, `organization=${w.h.b.orgId}`);
      expect(new URL(forB.location).origin).toBe(other.issuer);
    } finally {
      await other.close();
    }
  });

  it('the issuer is fetched only at allowed addresses: a loopback provider saved under SSO_ALLOWED_CIDRS is refused by a server without it', async () => {
    const strict = await buildApp({ config: { ...w.h.config, ssoAllowedCidrs: [] }, db: w.h.deps.db });
    try {
      const res = await strict.inject({ method: 'GET', url: `/auth/sso/start?organization=${w.h.a.orgId}`, headers: FROM_APP });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`${SIGN_IN_ERROR}sso_provider_error`);
      expect(cookieOf(res, 'labstock_sso')).toBeUndefined();
    } finally {
      await strict.close();
    }
  });

  it('under an https APP_URL both cookies are Secure, and the flow cookie is HttpOnly on /auth/sso only', async () => {
    const h = await startHarness({ APP_URL: 'https://labstock.example', SSO_ALLOWED_CIDRS: '127.0.0.0/8', SSO_DNS_SERVERS: w.dns.server });
    const op = await startOidc({ redirectUris: ['https://labstock.example/auth/sso/callback'] });
    try {
      await h.call(h.a.admin.token, {
        method: 'PUT',
        url: '/organization/sso',
        payload: {
          issuer: op.issuer,
          client_id: op.clientId,
          client_secret: op.clientSecret,
          allowed_domains: ['lab.example'],
          enabled: true,
        },
      });
      // The new person below gets an account only in a proved domain (docs/auth.md, Single sign-on, Domains).
      const [domain] = (await h.call(h.a.admin.token, { method: 'GET', url: '/organization/sso/domains' })).json();
      w.dns.txt(domain.txt_name, domain.txt_value);
      const verified = await h.call(h.a.admin.token, { method: 'POST', url: '/organization/sso/domains/lab.example/verify' });
      expect(verified.statusCode, verified.body).toBe(200);
      const s = await h.app.inject({ method: 'GET', url: `/auth/sso/start?organization=${h.a.orgId}`, headers: FROM_APP });
      expect(String(s.headers['set-cookie'])).toMatch(
        /^labstock_sso=[\w-]+; Path=\/auth\/sso; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/,
      );
      op.signInAs = person('m', 'm@lab.example');
      const back = await op.authorize(String(s.headers.location));
      expect(back.origin).toBe('https://labstock.example');
      const res = await h.app.inject({
        method: 'GET',
        url: back.pathname + back.search,
        headers: { cookie: `labstock_sso=${cookieOf(s, 'labstock_sso')}` },
      });
      expect(res.headers.location).toBe('https://labstock.example/app/');
      const lines = ([] as string[]).concat(res.headers['set-cookie'] as string[]);
      expect(lines.find((l) => l.startsWith('labstock_session='))).toMatch(/; Secure$/);
    } finally {
      await op.close();
      await h.close();
    }
  });
});
