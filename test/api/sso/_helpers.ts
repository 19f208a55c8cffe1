import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { startDns, type TestDns } from '../../helpers/dns.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { type OidcUser, startOidc, type TestOidc } from '../../helpers/oidc.js';
import { sessionCookieOf } from '../../helpers/sessions.js';
import { useStarted } from '../../helpers/use-harness.js';

// SSO tests: the real app (harness) and a real OpenID provider in this process (test/helpers/oidc.ts). The
// browser is played by plain requests: start at Labstock, follow the provider's redirects, come back to the
// callback with the flow cookie that start set.

export const CALLBACK = 'http://labstock.test/auth/sso/callback';
export const SIGN_IN_ERROR = 'http://labstock.test/app/sign-in?error=';

export interface SsoWorld {
  h: Harness;
  op: TestOidc;
  /** The DNS server the app resolves SSO domain verification records with (SSO_DNS_SERVERS). */
  dns: TestDns;
  close(): Promise<void>;
}

export async function startSsoWorld(env: Record<string, string> = {}): Promise<SsoWorld> {
  const dns = await startDns();
  const h = await startHarness({ SSO_ALLOWED_CIDRS: '127.0.0.0/8', SSO_DNS_SERVERS: dns.server, ...env });
  const op = await startOidc({ redirectUris: [CALLBACK] });
  return {
    h,
    op,
    dns,
    async close() {
      await op.close();
      await h.close();
      await dns.close();
    },
  };
}

/**
 * A test file's SSO world in one line: started before its tests with org A's SSO configured (configureSso), then
 * `setup` (more providers, settings); closed after them.
 */
export function useSsoWorld(setup?: (w: SsoWorld) => Promise<unknown>): SsoWorld {
  return useStarted(
    async () => {
      const w = await startSsoWorld();
      try {
        await configureSso(w);
        await setup?.(w);
      } catch (error) {
        await w.close();
        throw error;
      }
      return w;
    },
    (w) => w.close(),
  );
}

/**
 * Org A's admin configures SSO with the test provider (by token), and, unless told not to, proves the allowed
 * domains as an admin would: publishes each pending domain's TXT record and asks for its verification.
 */
export async function configureSso(
  w: SsoWorld,
  body: Record<string, unknown> = {},
  token = w.h.a.admin.token,
  options: { verify?: boolean } = {},
) {
  const res = await w.h.call(token, {
    method: 'PUT',
    url: '/organization/sso',
    payload: {
      issuer: w.op.issuer,
      client_id: w.op.clientId,
      client_secret: w.op.clientSecret,
      allowed_domains: ['lab.example'],
      enabled: true,
      ...body,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  if (options.verify !== false) await verifyDomains(w, token);
  return res.json();
}

/** Publishes the TXT record of each pending domain of the token's organization and verifies it. */
export async function verifyDomains(w: SsoWorld, token = w.h.a.admin.token) {
  const listed = await w.h.call(token, { method: 'GET', url: '/organization/sso/domains' });
  expect(listed.statusCode, listed.body).toBe(200);
  for (const row of listed.json() as { domain: string; status: string; txt_name: string; txt_value: string }[]) {
    if (row.status === 'verified') continue;
    w.dns.txt(row.txt_name, row.txt_value);
    const done = await w.h.call(token, { method: 'POST', url: `/organization/sso/domains/${row.domain}/verify` });
    expect(done.statusCode, done.body).toBe(200);
  }
}

/** The value of a cookie in a response's Set-Cookie headers (undefined when not set). */
export function cookieOf(res: LightMyRequestResponse, name: string): string | undefined {
  const raw = res.headers['set-cookie'];
  const all = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const line = all.find((c) => c.startsWith(`${name}=`));
  return line === undefined ? undefined : line.slice(name.length + 1).split(';')[0]!;
}

/** What a browser sends when the sign-in page (same origin) navigates to the start. */
export const FROM_APP = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' };

export async function start(
  w: SsoWorld,
  query: string,
  headers: Record<string, string> = FROM_APP,
): Promise<{ res: LightMyRequestResponse; flow: string | undefined; location: string }> {
  const res = await w.h.app.inject({ method: 'GET', url: `/auth/sso/start?${query}`, headers });
  return { res, flow: cookieOf(res, 'labstock_sso'), location: String(res.headers.location ?? '') };
}

/** Through the provider: the URL it sends the browser back to (code and state, or error). */
export async function atProvider(w: SsoWorld, authorizationUrl: string, as?: OidcUser): Promise<URL> {
  if (as) w.op.signInAs = as;
  const back = await w.op.authorize(authorizationUrl);
  expect(back.origin + back.pathname).toBe(CALLBACK);
  return back;
}

export function callback(w: SsoWorld, back: URL | string, cookies: Record<string, string | undefined> = {}) {
  const url = typeof back === 'string' ? back : back.pathname + back.search;
  const cookie = Object.entries(cookies)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
  return w.h.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
}

/** The whole sign-in as a browser does it; answers the callback's response. */
export async function ssoSignIn(w: SsoWorld, as: OidcUser, query = `organization=${w.h.a.orgId}`) {
  const s = await start(w, query);
  expect(s.res.statusCode, s.res.body).toBe(302);
  expect(s.flow).toBeTruthy();
  const back = await atProvider(w, s.location, as);
  return callback(w, back, { labstock_sso: s.flow });
}

/** The callback's session cookie, checked to work: GET /auth/session shows who is signed in. */
export async function sessionOf(w: SsoWorld, res: LightMyRequestResponse) {
  const cookie = sessionCookieOf(res);
  expect(cookie, `${res.statusCode} ${String(res.headers.location)}`).toBeTruthy();
  const session = await w.h.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: `labstock_session=${cookie}` } });
  expect(session.json().signed_in, session.body).toBe(true);
  return { cookie: cookie!, body: session.json() };
}

export const person = (sub: string, email: string, extra: Partial<OidcUser> = {}): OidcUser => ({
  sub,
  email,
  email_verified: true,
  given_name: 'Sam',
  family_name: 'Sso',
  ...extra,
});

/**
 * Links the provider account `as` to the person signed in by `session` (POST /auth/sso/link, the provider, the
 * callback with the flow cookie and the session cookie); answers the callback's response.
 */
export async function linkSso(w: SsoWorld, session: { cookie: string; csrf: string }, as: OidcUser) {
  const started = await w.h.app.inject({
    method: 'POST',
    url: '/auth/sso/link',
    headers: { cookie: `labstock_session=${session.cookie}`, 'x-csrf-token': session.csrf },
    payload: {},
  });
  expect(started.statusCode, started.body).toBe(200);
  const back = await atProvider(w, started.json().url, as);
  return callback(w, back, { labstock_sso: cookieOf(started, 'labstock_sso'), labstock_session: session.cookie });
}
