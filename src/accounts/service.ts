import { type Actor, isSystemActor, type SystemActor } from '../shared/actor.js';
import type { Db, Executor } from '../shared/db/database.js';
import { AppError, type FieldError, fieldError, notFound, validation } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { EMAIL_RULE, isEmailAddress } from '../shared/schemas.js';
import { shownChanged } from '../shared/shown-elsewhere.js';
import { nowIso } from '../shared/time.js';
import { type AuthCache, authChanged, changingAuth, forgetAuth, touchWhenDue } from './auth-cache.js';
import { setUserNames } from './links-repository.js';
import * as repo from './repository.js';
import type { UpdateCurrentUserBody } from './schemas.js';
import { generateToken, hashToken, TOKEN_TOUCH_INTERVAL_MS } from './tokens.js';

/** An e-mail address as stored (trimmed, lower case); 422 on `field` when it is not a plain one (src/shared/schemas.ts). */
export function normalizeEmail(raw: string, field = 'email'): string {
  const email = raw.trim().toLowerCase();
  if (!isEmailAddress(email)) throw fieldError(field, EMAIL_RULE);
  return email;
}

/** An installation-level operation: only the command line, the demo and fixtures create organizations. */
export async function createOrganization(db: Executor, _by: SystemActor, input: { name: string }) {
  const name = input.name.trim();
  if (!name) throw fieldError('name', 'must not be empty');
  const row = { id: newId(), name, created_at: nowIso() };
  await repo.insertOrganization(db, row);
  return row;
}

export interface CreateUserInput {
  organizationId: string;
  email: string;
  firstName: string;
  lastName: string;
  role?: 'admin' | 'member';
}

/**
 * Creates the user, or adds an existing user (same e-mail) to another organization. Only the system calls it: the
 * command line, the demo, and SSO's just-in-time account (`systemActor('server')`); invitations write their own.
 */
export async function createUser(db: Db, _by: SystemActor, input: CreateUserInput) {
  const email = normalizeEmail(input.email);
  if (!input.firstName.trim()) throw fieldError('first_name', 'must not be empty');
  if (!input.lastName.trim()) throw fieldError('last_name', 'must not be empty');
  const role = input.role ?? 'member';
  const user = await db.transaction().execute(async (trx) => {
    if (!(await repo.findOrganization(trx, input.organizationId))) throw notFound('organization');
    const now = nowIso();
    let found = await repo.findUserByEmail(trx, email);
    if (!found) {
      found = { id: newId(), email, first_name: input.firstName.trim(), last_name: input.lastName.trim(), is_operator: 0, created_at: now };
      await repo.insertUser(trx, found);
    }
    // An existing member's new role: their credentials in this organization act with it. A new membership has no
    // credential anywhere's cache could hold, so other processes are not told (nor made to drop what they hold).
    const changed = await repo.upsertOrgMembership(trx, input.organizationId, found.id, role, now);
    if (changed) await authChanged(trx, { userId: found.id, organizationId: input.organizationId });
    return { ...found, changed };
  });
  if (user.changed) forgetAuth({ userId: user.id, organizationId: input.organizationId });
  return {
    id: user.id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    organization_id: input.organizationId,
    role,
  };
}

/** An Actor only reaches its own tokens, in the organization it acts in; anything else is named like an unknown id. */
const ownsToken = (by: Actor | SystemActor, token: { userId: string; organizationId: string }): boolean =>
  isSystemActor(by) || (token.userId === by.userId && token.organizationId === by.organizationId);

/** Returns the plain token once; only its hash is kept. */
export async function createToken(
  db: Db,
  by: Actor | SystemActor,
  input: { userId: string; organizationId: string; name?: string | null; expiresAt?: string | null },
) {
  if (!ownsToken(by, input)) throw notFound('user in that organization');
  const membership = await repo.findOrgMembership(db, input.organizationId, input.userId);
  if (!membership) throw notFound('user in that organization');
  const token = generateToken();
  const row = {
    id: newId(),
    user_id: input.userId,
    organization_id: input.organizationId,
    name: input.name ?? null,
    token_hash: hashToken(token),
    created_at: nowIso(),
    expires_at: input.expiresAt ?? null,
  };
  await repo.insertToken(db, row);
  return {
    id: row.id,
    token,
    user_id: row.user_id,
    organization_id: row.organization_id,
    name: row.name,
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}

export async function revokeToken(db: Db, by: Actor | SystemActor, tokenId: string) {
  const token = await repo.findToken(db, tokenId);
  if (!token || !ownsToken(by, { userId: token.user_id, organizationId: token.organization_id })) throw notFound('token');
  if (!token.revoked_at) await changingAuth(db, [{ tokenId }], (trx) => repo.revokeToken(trx, tokenId, nowIso()));
  return { ...(await repo.findToken(db, tokenId))! };
}

/** The one construction of an Actor from a membership, for tokens and sessions alike (src/accounts/sessions.ts). */
export const actorOf = (row: { token_id: string; user_id: string; organization_id: string; role: 'admin' | 'member' }): Actor => ({
  tokenId: row.token_id,
  userId: row.user_id,
  organizationId: row.organization_id,
  role: row.role,
});

/** What the cache keeps of a token (src/accounts/auth-cache.ts); times in ms. */
interface CachedToken {
  actor: Actor;
  expiresAt: number | null;
  usedAt: number;
}

/**
 * Null for an unknown, revoked or expired token and for a deactivated membership. With a cache, a token seen in the
 * last seconds costs no statement, unless it has expired since or its once-a-minute touch is due: those go to the
 * database as without one.
 */
export async function authenticate(db: Db, rawToken: string, cache?: AuthCache): Promise<Actor | null> {
  const now = Date.now();
  const hash = hashToken(rawToken);
  const hit = cache?.get<CachedToken>('token', hash, now);
  if (hit && (hit.expiresAt === null || now < hit.expiresAt) && now - hit.usedAt <= TOKEN_TOUCH_INTERVAL_MS) return hit.actor;
  const mark = cache?.mark() ?? 0;
  const row = await repo.findActiveTokenByHash(db, hash, new Date(now).toISOString());
  if (!row) {
    cache?.delete(hash);
    return null;
  }
  const usedAt = await touchWhenDue(row.last_used_at, now, (at) => repo.touchToken(db, row.token_id, at));
  const actor = actorOf(row);
  if (cache) {
    const value: CachedToken = { actor, expiresAt: row.expires_at ? Date.parse(row.expires_at) : null, usedAt };
    cache.set('token', hash, value, { ...actor, operatorId: null }, mark, now);
  }
  return actor;
}

export async function currentUser(db: Db, actor: Actor) {
  const users = await repo.userSummaries(db, [actor.userId]);
  const user = users.get(actor.userId);
  if (!user) throw new AppError('unauthorized', "the token's user no longer exists");
  return user;
}

/** PUT /user: the caller's own names, trimmed; neither may end up blank (invitations ask for both, src/accounts/invitations.ts). */
/** `appUrl` (config.appUrl): the names show in stored item documents, rewritten in the same transaction. */
export async function updateCurrentUser(db: Db, appUrl: string, actor: Actor, input: UpdateCurrentUserBody) {
  const user = await repo.findUser(db, actor.userId);
  if (!user) throw new AppError('unauthorized', "the token's user no longer exists");
  const first = (input.first_name ?? user.first_name).trim();
  const last = (input.last_name ?? user.last_name).trim();
  const errors: FieldError[] = [];
  if (input.first_name !== undefined && !first) errors.push({ field: 'first_name', message: 'must not be blank' });
  if (input.last_name !== undefined && !last) errors.push({ field: 'last_name', message: 'must not be blank' });
  if (errors.length > 0) throw validation(errors);
  if (first !== user.first_name || last !== user.last_name)
    await db.transaction().execute(async (trx) => {
      await setUserNames(trx, actor.userId, first, last);
      await shownChanged(trx, appUrl, { userIds: [actor.userId] });
    });
  return currentUser(db, actor);
}
