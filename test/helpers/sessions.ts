import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { setPassword } from '../../src/accounts/auth.js';
import { systemActor } from '../../src/shared/actor.js';
import type { Harness } from './harness.js';

// Signing in through the real route, and calling the API the way the web application does: the session cookie,
// plus the CSRF token on unsafe methods.

export const PASSWORD = 'correct horse battery staple';

export interface Session {
  cookie: string;
  csrf: string;
  body: any;
}

/** The cookie's value from a Set-Cookie header ('' when it clears the cookie, null when there is none). */
export function sessionCookieOf(res: LightMyRequestResponse): string | null {
  const raw = res.headers['set-cookie'];
  const all = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const mine = all.find((c) => c.startsWith('labstock_session='));
  return mine === undefined ? null : mine.slice('labstock_session='.length).split(';')[0]!;
}

export async function givePassword(h: Harness, userId: string, password = PASSWORD): Promise<void> {
  await setPassword(h.deps.db, systemActor('cli'), userId, password);
}

export async function signIn(
  h: Harness,
  email: string,
  password = PASSWORD,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Session> {
  const res = await h.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email, password, ...extra }, headers });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = sessionCookieOf(res);
  expect(cookie).toBeTruthy();
  return { cookie: cookie!, csrf: res.json().csrf_token, body: res.json() };
}

/** A request with the session cookie; unsafe methods carry the CSRF token unless `csrf: false`. */
export function withSession(
  h: Harness,
  session: Pick<Session, 'cookie' | 'csrf'>,
  opts: InjectOptions,
  { csrf = true }: { csrf?: boolean } = {},
): Promise<LightMyRequestResponse> {
  const headers = { ...(opts.headers ?? {}) } as Record<string, string>;
  headers.cookie = `labstock_session=${session.cookie}`;
  const method = (opts.method ?? 'GET').toUpperCase();
  if (csrf && !['GET', 'HEAD', 'OPTIONS'].includes(method)) headers['x-csrf-token'] = session.csrf;
  return h.app.inject({ ...opts, headers });
}
