import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Actor } from '../shared/actor.js';
import type { Config } from '../shared/config.js';
import type { Db, Executor } from '../shared/db/database.js';
import type { SessionsTable } from '../shared/db/schema-accounts-auth.js';
import { newId } from '../shared/ids.js';
import { type AuthCache, asBookkeeping, authChanged, changingAuth, forgetAuth } from './auth-cache.js';
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

/** What the cache keeps of a session (src/accounts/auth-cache.ts): the row as the database now has it. */
interface CachedSession {
  actor: Actor;
  session: SessionsTable;
}

/**
 * Whether a cached session answers this request with no statement: exactly when the database path below would
 * neither refuse, delete, rotate nor touch it. Anything else goes to the database, which decides as it always has.
 * last_seen_at only grows and expires_at never changes, so a cached row that says "not ended" is right.
 */
function servesFromCache(session: SessionsTable, hash: string, times: SessionTimes, now: number): boolean {
  const sinceRotation = now - Date.parse(session.rotated_at);
  const sinceSeen = now - Date.parse(session.last_seen_at);
  if (now >= Date.parse(session.expires_at) || sinceSeen >= times.sessionIdleTimeoutMs || sinceSeen > TOKEN_TOUCH_INTERVAL_MS) return false;
  return session.secret_hash === hash ? sinceRotation < times.sessionRotateMs : sinceRotation <= ROTATION_GRACE_MS;
}

const sessionActor = (session: SessionsTable, role: 'admin' | 'member') =>
  actorOf({ token_id: `session:${session.id}`, user_id: session.user_id, organization_id: session.organization_id, role });

/** The session a cookie value names, or null when it is unknown, ended (idle or absolute) or its membership is off. */
export async function resolveSession(
  ex: Executor,
  times: SessionTimes,
  secret: string,
  now = Date.now(),
  cache?: AuthCache,
): Promise<ResolvedSession | null> {
  if (!/^[\w-]{20,100}$/.test(secret)) return null;
  const hash = hashSessionSecret(secret);
  const hit = cache?.get<CachedSession>('session', hash, now);
  if (hit && servesFromCache(hit.session, hash, times, now)) return { actor: hit.actor, session: hit.session, newSecret: null };
  const mark = cache?.mark() ?? 0;
  const row = await repo.findSessionByHash(ex, hash);
  if (!row) {
    cache?.delete(hash);
    return null;
  }
  const { role, ...session } = row;
  const current = session.secret_hash === hash;
  if (!current && now - Date.parse(session.rotated_at) > ROTATION_GRACE_MS) {
    cache?.delete(hash);
    return null;
  }
  if (now >= Date.parse(session.expires_at) || now - Date.parse(session.last_seen_at) >= times.sessionIdleTimeoutMs) {
    await repo.deleteSession(ex, session.id);
    forgetAuth({ tokenId: `session:${session.id}` });
    return null;
  }
  const at = new Date(now).toISOString();
  let rotated: string | null = null;
  // The row as the database has it after this request, for the cache; null when that is not known.
  let after: SessionsTable | null = session;
  if (current && now - Date.parse(session.rotated_at) >= times.sessionRotateMs) {
    const candidate = newSecret();
    const newHash = hashSessionSecret(candidate);
    // Another request may have rotated first; then this one goes on with the value it has (still in its grace).
    if (await asBookkeeping(() => repo.rotateSession(ex, session.id, hash, newHash, at))) {
      rotated = candidate;
      after = { ...session, secret_hash: newHash, previous_secret_hash: hash, rotated_at: at, last_seen_at: at };
    } else after = null;
  } else if (now - Date.parse(session.last_seen_at) > TOKEN_TOUCH_INTERVAL_MS) {
    // Like tokens' last_used_at: written at most once a minute, so reads do not each become a write.
    await asBookkeeping(() => repo.touchSession(ex, session.id, at));
    after = { ...session, last_seen_at: at };
  }
  const actor = sessionActor(session, role);
  if (cache && after) {
    const who = { ...actor, operatorId: null };
    cache.set('session', hash, { actor: sessionActor(after, role), session: after }, who, mark, now);
    if (rotated) cache.set('session', after.secret_hash, { actor: sessionActor(after, role), session: after }, who, mark, now);
  } else cache?.delete(hash);
  return { actor, session, newSecret: rotated };
}

/** Sign-out: this session ends, here and (at commit) in every process. */
export const endSession = (db: Db, sessionId: string): Promise<void> =>
  changingAuth(db, [{ tokenId: `session:${sessionId}` }], (trx) => repo.deleteSession(trx, sessionId));

/**
 * "Sign out everywhere": every session of the user in the organization this session acts in. Not the person's
 * sessions in other organizations: a session of one organization never ends what another one's gave (docs/auth.md,
 * Sessions). Tokens are not touched.
 */
export const endAllSessions = (db: Db, userId: string, organizationId: string): Promise<number> =>
  changingAuth(db, [{ userId, organizationId }], (trx) => repo.deleteUserSessions(trx, userId, organizationId));

/** A sign-in ends the session the browser brought, if its cookie value is still the current one. */
export async function endSessionBySecret(db: Db, secret: string): Promise<void> {
  const hash = hashSessionSecret(secret);
  const ids = await db.transaction().execute(async (trx) => {
    const deleted = await repo.deleteSessionBySecretHash(trx, hash);
    if (deleted.length > 0) await authChanged(trx, ...deleted.map((id) => ({ tokenId: `session:${id}` })));
    return deleted;
  });
  forgetAuth(...ids.map((id) => ({ tokenId: `session:${id}` })));
}

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

/** The origin of APP_URL, where people open Labstock. */
export const appOrigin = (appUrl: string): string => new URL(appUrl).origin;

type Origins = Pick<Config, 'appUrl' | 'appOrigins'>;

/** Whether a browser page of `origin` may sign in and use the session cookie (config.appOrigins). */
export const isAppOrigin = (config: Origins, origin: string): boolean => config.appOrigins.includes(origin);

/**
 * What a refused origin is told besides `what`: where Labstock accepts it, and the setting that would make `origin`
 * that place (a server opened at another address than APP_URL names was the usual cause).
 */
export function foreignOrigin(config: Origins, origin: string, what: string): string {
  const advice = /^https?:\/\/[^/\s]+$/.test(origin) ? `; if people open Labstock at ${origin}, set APP_URL=${origin} and restart` : '';
  return `${what} ${appOrigin(config.appUrl)} (APP_URL)${advice}`;
}

/** The Set-Cookie value: HttpOnly, SameSite=Lax, Path=/, Secure over HTTPS; an empty value with Max-Age=0 clears it. */
export function sessionCookie(secret: string, opts: { secure: boolean; maxAgeMs: number }): string {
  const maxAge = Math.max(0, Math.floor(opts.maxAgeMs / 1000));
  return `${SESSION_COOKIE}=${secret}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${opts.secure ? '; Secure' : ''}`;
}
