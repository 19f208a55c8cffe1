import type { Executor } from '../shared/db/database.js';
import type { UserLinksTable } from '../shared/db/schema.js';

// Queries of user_links, the one-time invitation and password-reset links (src/accounts/links.ts), owned by accounts/.

type Kind = UserLinksTable['kind'];

export async function insertLink(ex: Executor, row: UserLinksTable): Promise<void> {
  await ex.insertInto('user_links').values(row).execute();
}

/**
 * Revokes the user's unused links of one kind: of one organization, or every one of them (`organizationId`
 * undefined), and only those of one source if given. Issuing a link supersedes the older ones (src/accounts/links.ts);
 * deactivation and a new password end them too.
 */
export async function revokeLinks(
  ex: Executor,
  userId: string,
  kind: Kind | null,
  now: string,
  organizationId?: string,
  source?: UserLinksTable['source'],
): Promise<void> {
  let q = ex
    .updateTable('user_links')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null);
  if (kind) q = q.where('kind', '=', kind);
  if (organizationId !== undefined) q = q.where('organization_id', '=', organizationId);
  if (source !== undefined) q = q.where('source', '=', source);
  await q.execute();
}

/** The link a secret names, if it has not been used or revoked and has not expired. */
export const findValidLink = (ex: Executor, tokenHash: string, kind: Kind, now: string) =>
  ex
    .selectFrom('user_links')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();

/** Marks the link used only if it still is valid: of two uses at once exactly one gets true. */
export async function useLink(ex: Executor, id: string, now: string): Promise<boolean> {
  const r = await ex
    .updateTable('user_links')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The newest reset link of a user, whoever made it: self-service requests wait a minute after it. */
export const latestResetLink = (ex: Executor, userId: string) =>
  ex
    .selectFrom('user_links')
    .select(['created_at'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'password_reset')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();

/** Every organization a user has a membership in, active or not. */
export const membershipsOf = (ex: Executor, userId: string) =>
  ex.selectFrom('org_memberships').select(['organization_id', 'deactivated_at']).where('user_id', '=', userId).execute();

/** The one membership that a link of an organization acts through, when active, with the organization's name. */
export const activeMembershipIn = (ex: Executor, userId: string, organizationId: string) =>
  ex
    .selectFrom('org_memberships')
    .innerJoin('organizations', 'organizations.id', 'org_memberships.organization_id')
    .select(['org_memberships.role', 'organizations.id', 'organizations.name'])
    .where('org_memberships.user_id', '=', userId)
    .where('org_memberships.organization_id', '=', organizationId)
    .where('org_memberships.deactivated_at', 'is', null)
    .executeTakeFirst();

export async function setUserNames(ex: Executor, userId: string, firstName: string, lastName: string): Promise<void> {
  await ex.updateTable('users').set({ first_name: firstName, last_name: lastName }).where('id', '=', userId).execute();
}

export async function countOrganizations(ex: Executor): Promise<number> {
  const row = await ex
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The invitations of existing accounts still waiting in an organization (user_links.invited_role, migration 0018):
 * per person not yet a member there, with at least one link neither used nor revoked. Named by their oldest unused
 * link's id, which stays the same when the invitation is sent again; role and expiry are the newest link's.
 */
export async function pendingInvitations(ex: Executor, organizationId: string, userId?: string) {
  let q = ex
    .selectFrom('user_links as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.id', 'l.user_id', 'l.created_at', 'l.expires_at', 'l.revoked_at', 'l.invited_role', 'u.email'])
    .where('l.organization_id', '=', organizationId)
    .where('l.kind', '=', 'invitation')
    .where('l.invited_role', 'is not', null)
    .where('l.used_at', 'is', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('org_memberships as m')
            .select('m.user_id')
            .whereRef('m.user_id', '=', 'l.user_id')
            .where('m.organization_id', '=', organizationId),
        ),
      ),
    );
  if (userId) q = q.where('l.user_id', '=', userId);
  const rows = await q.orderBy('l.created_at').orderBy('l.id').execute();
  const byUser = new Map<string, typeof rows>();
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
  return [...byUser.values()].flatMap((links) => {
    const live = links.filter((l) => l.revoked_at === null);
    if (live.length === 0) return [];
    const oldest = links[0]!;
    const newest = live.at(-1)!;
    return [
      {
        id: oldest.id,
        user_id: oldest.user_id,
        email: oldest.email,
        created_at: oldest.created_at,
        role: newest.invited_role!,
        expires_at: newest.expires_at,
      },
    ];
  });
}
