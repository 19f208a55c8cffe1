import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Actor } from '../shared/actor.js';
import type { Config } from '../shared/config.js';
import type { Executor } from '../shared/db/database.js';
import type { SessionsTable } from '../shared/db/schema-accounts-auth.js';
import { newId } from '../shared/ids.js';
import * as repo from './auth-repository.js';
import { actorOf } from './service.js';
import { TOKEN_TOUCH_INTERVAL_MS } from './tokens.js';

// Server-side sessions (docs/auth.md). The cookie holds 32 random bytes; the row keeps only their SHA-256, like
// tokens (src/accounts/tokens.ts). A session acts exactly as a token of the same user in the same organization
// would: the same Actor, built by the same function, from the same membership row.

export const SESSION_COOKIE = 'labstock_session';
/** After a rotation the previous cookie value still authenticates this long, for requests already in flight. */
export const ROTATION_GRACE_MS = 60_000;

type SessionTimes = Pick<Config, 'sessionIdleTimeoutMs' | 'sessionMaxAgeMs' | 'sessionRotateMs'>;

const newSecret = (): string => randomBytes(32).toString('base64url');
export const hashSessionSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

export interface ResolvedSession {
  actor: Actor;
  session: SessionsTable;
  /** Set when this request rotated the cookie value: the response must carry the new cookie. */
  newSecret: string | null;
}

/** A new session with a new id and cookie value (never one the client brought: no fixation). */
export async function createSession(ex: Executor, times: SessionTimes, userId: string, organizationId: string, now = Date.now()) {
  const secret = newSecret();
  const at = new Date(now).toISOString();
  await repo.deleteEndedSessions(ex, userId, at, new Date(now - times.sessionIdleTimeoutMs).toISOString());
  const row: SessionsTable = {
    id: newId(),
    secret_hash: hashSessionSecret(secret),
    previous_secret_hash: null,
    rotated_at: at,
    user_id: userId,
    organization_id: organizationId,
    csrf_token: randomBytes(32).toString('base64url'),
    created_at: at,
    last_seen_at: at,
    expires_at: new Date(now + times.sessionMaxAgeMs).toISOString(),
  };
  await repo.insertSession(ex, row);
  return { secret, session: row };
}

/** The session a cookie value names, or null when it is unknown, ended (idle or absolute) or its membership is off. */
export async function resolveSession(ex: Executor, times: SessionTimes, secret: string, now = Date.now()): Promise<ResolvedSession | null> {
  if (!/^[\w-]{20,100}$/.test(secret)) return null;
  const hash = hashSessionSecret(secret);
  const row = await repo.findSessionByHash(ex, hash);
  if (!row) return null;
  const { role, ...session } = row;
  const current = session.secret_hash === hash;
  if (!current && now - Date.parse(session.rotated_at) > ROTATION_GRACE_MS) return null;
  if (now >= Date.parse(session.expires_at) || now - Date.parse(session.last_seen_at) >= times.sessionIdleTimeoutMs) {
    await repo.deleteSession(ex, session.id);
    return null;
  }
  const at = new Date(now).toISOString();
  let rotated: string | null = null;
  if (current && now - Date.parse(session.rotated_at) >= times.sessionRotateMs) {
    const candidate = newSecret();
    // Another request may have rotated first; then this one goes on with the value it has (still in its grace).
    if (await repo.rotateSession(ex, session.id, hash, hashSessionSecret(candidate), at)) rotated = candidate;
  } else if (now - Date.parse(session.last_seen_at) > TOKEN_TOUCH_INTERVAL_MS) {
    // Like tokens' last_used_at: written at most once a minute, so reads do not each become a write.
    await repo.touchSession(ex, session.id, at);
  }
  const actor = actorOf({ token_id: `session:${session.id}`, user_id: session.user_id, organization_id: session.organization_id, role });
  return { actor, session, newSecret: rotated };
}

export const endSession = (ex: Executor, sessionId: string): Promise<void> => repo.deleteSession(ex, sessionId);

/** "Sign out everywhere": every session of the user, in every organization. Tokens are not touched. */
export const endAllSessions = (ex: Executor, userId: string): Promise<number> => repo.deleteUserSessions(ex, userId);

/** When the session ends if it stays unused from now (the earlier of idle and absolute expiry). */
export function idleExpiresAt(session: SessionsTable, times: SessionTimes): string {
  const idle = Date.parse(session.last_seen_at) + times.sessionIdleTimeoutMs;
  return new Date(Math.min(idle, Date.parse(session.expires_at))).toISOString();
}

export function csrfTokenMatches(session: SessionsTable, sent: string | undefined): boolean {
  if (!sent) return false;
  const a = Buffer.from(session.csrf_token);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The origin of APP_URL: the only origin from which the session cookie is accepted. */
export const appOrigin = (appUrl: string): string => new URL(appUrl).origin;

/** The Set-Cookie value: HttpOnly, SameSite=Lax, Path=/, Secure over HTTPS; an empty value with Max-Age=0 clears it. */
export function sessionCookie(secret: string, opts: { secure: boolean; maxAgeMs: number }): string {
  const maxAge = Math.max(0, Math.floor(opts.maxAgeMs / 1000));
  return `${SESSION_COOKIE}=${secret}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${opts.secure ? '; Secure' : ''}`;
}
