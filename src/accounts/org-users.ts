import type { Actor } from '../shared/actor.js';
import { lowerText } from '../shared/contains-text.js';
import { type Db, isPostgres } from '../shared/db/database.js';
import { AppError, notFound } from '../shared/errors.js';
import type { Page } from '../shared/pagination.js';
import { nowIso } from '../shared/time.js';
import { authChanged, forgetAuth } from './auth-cache.js';
import { deleteUserSessions } from './auth-repository.js';
import { pendingInvitations, revokeLinks } from './links-repository.js';
import * as repo from './repository.js';
import type { OrganizationUser, UpdateOrganizationUserBody } from './schemas.js';
import { requireAdmin } from './user-tokens.js';

// Organization administration of users by API (org admins; docs/auth.md). New users arrive by invitation
// (src/accounts/invitations.ts) or through the CLI (`labstock admin user create`).

/** `q` (trimmed, not blank): text inside the person's "first last" name or e-mail; invited people have only the e-mail. */
export async function listOrganizationUsers(
  db: Db,
  actor: Actor,
  page: Page,
  q?: string,
): Promise<{ total: number; users: OrganizationUser[] }> {
  requireAdmin(actor);
  const { total, rows } = await repo.pageOrganizationUsers(db, actor.organizationId, page, q);
  // After the members, the invitations of existing accounts not accepted yet (src/accounts/invitations.ts), shown
  // as invited people under their invitation's id: no name of an account of another organization is shown.
  const needle = q === undefined ? undefined : lowerText(q);
  const invited = await pendingInvitations(db, actor.organizationId);
  const pending = invited
    .filter((p) => needle === undefined || lowerText(p.email).includes(needle))
    .map(
      (p): OrganizationUser => ({
        id: p.id,
        first_name: '',
        last_name: '',
        email: p.email,
        role: p.role,
        deactivated_at: null,
        created_at: p.created_at,
        invitation_expires_at: p.expires_at,
      }),
    );
  const start = Math.max(0, page.offset - total);
  const users = [...rows, ...pending.slice(start, start + page.perPage - rows.length)];
  return { total: total + pending.length, users };
}

/**
 * Changes a member's role or deactivates them. Both take effect on the next request: the membership is marked
 * (every authentication checks it; cached ones are forgotten, src/accounts/auth-cache.ts), the user's sessions in
 * this organization are deleted and their tokens here revoked, so reactivating later restores the membership but
 * not old credentials. The organization keeps at least one active admin (409 otherwise).
 */
export async function updateOrganizationUser(db: Db, actor: Actor, userId: string, input: UpdateOrganizationUserBody) {
  const scope = { userId, organizationId: actor.organizationId };
  const updated = await db.transaction().execute(async (trx) => {
    const current = await repo.findOrganizationUser(trx, actor.organizationId, userId);
    if (!current) throw notFound('user');
    requireAdmin(actor);
    // Serialises concurrent demotions on PostgreSQL, so two admins cannot demote each other into none.
    if (isPostgres(trx)) await repo.lockOrganizationAdmins(trx, actor.organizationId);
    const losesAdmin = current.role === 'admin' && current.deactivated_at === null && (input.role === 'member' || input.active === false);
    if (losesAdmin && (await repo.countActiveAdmins(trx, actor.organizationId)) <= 1) {
      throw new AppError('conflict', 'The organization must keep at least one active admin');
    }
    const now = nowIso();
    const set: { role?: 'admin' | 'member'; deactivated_at?: string | null } = {};
    if (input.role) set.role = input.role;
    if (input.active === false && current.deactivated_at === null) set.deactivated_at = now;
    if (input.active === true) set.deactivated_at = null;
    if (Object.keys(set).length > 0) {
      await repo.updateMembership(trx, actor.organizationId, userId, set);
      // The role is in every Actor of theirs here, and deactivation ends them: other processes forget at commit.
      await authChanged(trx, scope);
    }
    if (set.deactivated_at) {
      await deleteUserSessions(trx, userId, actor.organizationId);
      await repo.revokeUserTokens(trx, userId, actor.organizationId, now);
      // Invitation and reset links of this organization end too, so reactivating does not revive them.
      await revokeLinks(trx, userId, null, now, actor.organizationId);
    }
    return (await repo.findOrganizationUser(trx, actor.organizationId, userId))!;
  });
  forgetAuth(scope);
  return updated;
}
