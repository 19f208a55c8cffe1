import type { Actor } from '../shared/actor.js';
import type { Db } from '../shared/db/database.js';
import { AppError, notFound } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import { changingAuth } from './auth-cache.js';
import * as authRepo from './auth-repository.js';
import { passwordResetMail } from './link-mail.js';
import type { CompletePasswordResetBody, IssuedLinkBody } from './link-schemas.js';
import {
  belongsOnlyTo,
  checkLinkThrottle,
  findUsableLink,
  type IssuedLink,
  issueLink,
  LINK_LIFETIME_MS,
  type LinkDeps,
  linkNotUsable,
  RESET_REQUEST_INTERVAL_MS,
  recordLinkFailure,
  sendLinkMail,
} from './links.js';
import * as linksRepo from './links-repository.js';
import { checkPasswordPolicy, hashPassword } from './passwords.js';
import * as repo from './repository.js';
import { normalizeEmail } from './service.js';
import { requireAdmin } from './user-tokens.js';

// Password resets by one-time link (docs/auth.md): asked for by the person (mailed, valid an hour), made by an org
// admin for a person who belongs to that organization only (returned and mailed, a day), or made by the operator
// with `labstock admin user reset-link` (printed, a day). Completing sets the password and ends every session of
// the person; it does not sign in: the person signs in with the new password.

const hasActiveMembership = (memberships: { deactivated_at: string | null }[]) => memberships.some((m) => m.deactivated_at === null);

/**
 * POST /auth/password-reset, run after the route has answered 202 (src/accounts/link-routes.ts): the answer is the
 * same, at the same time, whether or not the address has an account. At most one link per account a minute.
 */
export async function requestPasswordReset(deps: LinkDeps, rawEmail: string): Promise<void> {
  const email = rawEmail.trim().toLowerCase();
  const user = await repo.findUserByEmail(deps.db, email);
  if (!user || !hasActiveMembership(await linksRepo.membershipsOf(deps.db, user.id))) return;
  const latest = await linksRepo.latestResetLink(deps.db, user.id);
  if (latest && Date.now() - Date.parse(latest.created_at) < RESET_REQUEST_INTERVAL_MS) return;
  const link = await issueLink(deps.db, deps.appUrl, {
    kind: 'password_reset',
    userId: user.id,
    organizationId: null,
    createdBy: null,
    lifetimeMs: LINK_LIFETIME_MS.requestedReset,
    source: 'person',
  });
  await sendLinkMail(deps, passwordResetMail({ to: user.email, requestedBy: null, url: link.url, expiresAt: link.expires_at }), link.id);
}

/**
 * POST /organization/users/{id}/password-reset: a reset link for a member, returned to the admin (and mailed to the
 * member). Only for a person who belongs to this organization alone: the admin holds the link, and a password is
 * the person's everywhere.
 */
export async function adminPasswordResetLink(deps: LinkDeps, actor: Actor, userId: string): Promise<IssuedLinkBody> {
  const current = await repo.findOrganizationUser(deps.db, actor.organizationId, userId);
  if (!current) throw notFound('user');
  requireAdmin(actor);
  if (current.deactivated_at)
    throw new AppError('conflict', 'The user is deactivated: reactivate them first (PUT /organization/users/{id})');
  if (!belongsOnlyTo(await linksRepo.membershipsOf(deps.db, userId), actor.organizationId)) {
    throw new AppError(
      'conflict',
      'The user belongs to another organization too: they reset their password themselves (POST /auth/password-reset)',
    );
  }
  const link = await issueLink(deps.db, deps.appUrl, {
    kind: 'password_reset',
    userId,
    organizationId: actor.organizationId,
    createdBy: actor.userId,
    lifetimeMs: LINK_LIFETIME_MS.issuedReset,
  });
  const admin = (await repo.userSummaries(deps.db, [actor.userId])).get(actor.userId);
  const requestedBy = admin ? `${`${admin.first_name} ${admin.last_name}`.trim() || admin.email} <${admin.email}>` : null;
  const mail = passwordResetMail({ to: current.email, requestedBy, url: link.url, expiresAt: link.expires_at });
  const mailed = await sendLinkMail(deps, mail, link.id);
  return { url: link.url, expires_at: link.expires_at, mailed };
}

/** `labstock admin user reset-link`: the operator's reset link for any person with an active membership. */
export async function operatorPasswordResetLink(
  db: Db,
  appUrl: string,
  who: { userId?: string; email?: string },
): Promise<IssuedLink & { user: { id: string; email: string } }> {
  const user = who.userId ? await repo.findUser(db, who.userId) : await repo.findUserByEmail(db, normalizeEmail(who.email ?? ''));
  if (!user) throw notFound('user');
  if (!hasActiveMembership(await linksRepo.membershipsOf(db, user.id))) {
    throw new AppError('conflict', 'The user has no active membership in any organization, so could not sign in');
  }
  const link = await issueLink(db, appUrl, {
    kind: 'password_reset',
    userId: user.id,
    organizationId: null,
    createdBy: null,
    lifetimeMs: LINK_LIFETIME_MS.issuedReset,
  });
  return { ...link, user: { id: user.id, email: user.email } };
}

/** POST /auth/password-reset/complete: the new password; the link is used up and every session of the person ends. */
export async function completePasswordReset(db: Db, input: CompletePasswordResetBody, address: string): Promise<void> {
  await checkLinkThrottle(db, address);
  const link = await findUsableLink(db, input.token, 'password_reset');
  const user = link ? await repo.findUser(db, link.user_id) : undefined;
  if (!link || !user) {
    await recordLinkFailure(db, address);
    throw linkNotUsable();
  }
  checkPasswordPolicy(input.password, user.email);
  const hash = await hashPassword(input.password);
  await changingAuth(db, [{ userId: user.id }], async (trx) => {
    const now = nowIso();
    if (!(await linksRepo.useLink(trx, link.id, now))) throw linkNotUsable();
    await authRepo.setPasswordHash(trx, user.id, hash, now);
    await linksRepo.revokeLinks(trx, user.id, 'password_reset', now);
    await authRepo.deleteUserSessions(trx, user.id);
  });
}
