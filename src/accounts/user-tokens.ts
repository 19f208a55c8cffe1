import { type Actor, isOrgAdmin } from '../shared/actor.js';
import type { Db } from '../shared/db/database.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import type { Page } from '../shared/pagination.js';
import { nowIso } from '../shared/time.js';
import { changingAuth } from './auth-cache.js';
import * as repo from './repository.js';
import type { CreateUserTokenBody, UserToken } from './schemas.js';
import { createToken } from './service.js';

// Self-service tokens (GET/POST /user/tokens, DELETE /user/tokens/{id}) and the organization's view of them for
// org admins (GET /organization/tokens, DELETE /organization/tokens/{id}). Lists show tokens that still work, never
// a secret; a token is shown once, in the answer that creates it. A token belongs to one user in one organization,
// so "my tokens" are the caller's tokens in the organization the caller acts in.

type TokenRow = { id: string; name: string | null; created_at: string; expires_at: string | null; last_used_at: string | null };
const toUserToken = (r: TokenRow): UserToken => ({
  id: r.id,
  name: r.name,
  created_at: r.created_at,
  expires_at: r.expires_at,
  last_used_at: r.last_used_at,
});

export async function listMyTokens(db: Db, actor: Actor, page: Page) {
  const { total, rows } = await repo.pageLiveTokens(db, { organizationId: actor.organizationId, userId: actor.userId }, nowIso(), page);
  return { total, tokens: rows.map(toUserToken) };
}

export async function createMyToken(db: Db, actor: Actor, input: CreateUserTokenBody) {
  const name = input.name.trim();
  if (!name) throw fieldError('name', 'must not be empty');
  let expiresAt: string | null = null;
  if (input.expires_at !== undefined) {
    const at = Date.parse(input.expires_at);
    if (Number.isNaN(at)) throw fieldError('expires_at', 'must be an RFC 3339 date-time');
    if (at <= Date.now()) throw fieldError('expires_at', 'must be in the future');
    expiresAt = new Date(at).toISOString();
  }
  const created = await createToken(db, actor, { userId: actor.userId, organizationId: actor.organizationId, name, expiresAt });
  return { ...toUserToken({ ...created, last_used_at: null }), token: created.token };
}

/** 404 for a token that is not the caller's (or not in the caller's organization), as for any id it may not see. */
export async function revokeMyToken(db: Db, actor: Actor, tokenId: string): Promise<void> {
  const token = await repo.findToken(db, tokenId);
  if (!token || token.user_id !== actor.userId || token.organization_id !== actor.organizationId || token.revoked_at) {
    throw notFound('token');
  }
  await changingAuth(db, [{ tokenId }], (trx) => repo.revokeToken(trx, tokenId, nowIso()));
}

const requireAdmin = (actor: Actor) => {
  if (!isOrgAdmin(actor)) throw new AppError('forbidden', 'Only organization admins manage the organization');
};

export async function listOrganizationTokens(db: Db, actor: Actor, page: Page) {
  requireAdmin(actor);
  const { total, rows } = await repo.pageLiveTokens(db, { organizationId: actor.organizationId }, nowIso(), page);
  const users = await repo.userSummaries(
    db,
    rows.map((r) => r.user_id),
  );
  return { total, tokens: rows.map((r) => ({ ...toUserToken(r), user: users.get(r.user_id)! })) };
}

export async function revokeOrganizationToken(db: Db, actor: Actor, tokenId: string): Promise<void> {
  const token = await repo.findToken(db, tokenId);
  // A member asking about a foreign id learns nothing more than 404 would tell: the role check comes after.
  if (!token || token.organization_id !== actor.organizationId || token.revoked_at) throw notFound('token');
  requireAdmin(actor);
  await changingAuth(db, [{ tokenId }], (trx) => repo.revokeToken(trx, tokenId, nowIso()));
}

export { requireAdmin };
