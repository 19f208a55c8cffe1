import { type SqlBool, sql } from 'kysely';
import { containsPattern } from '../shared/contains-text.js';
import type { Executor } from '../shared/db/database.js';
import { pagedList } from '../shared/db/paged-list.js';
import type { OrganizationsTable, UsersTable } from '../shared/db/schema.js';
import type { Page } from '../shared/pagination.js';
import type { UserSummary } from './schemas.js';

export async function insertOrganization(ex: Executor, row: OrganizationsTable): Promise<void> {
  await ex.insertInto('organizations').values(row).execute();
}

export const listOrganizations = (ex: Executor) => ex.selectFrom('organizations').selectAll().orderBy('created_at').orderBy('id').execute();

export const findOrganization = (ex: Executor, id: string) =>
  ex.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertUser(ex: Executor, row: UsersTable): Promise<void> {
  await ex.insertInto('users').values(row).execute();
}

/** A user's columns without the password hash, which only sign-in reads (findCredentials). */
const userColumns = ['id', 'email', 'first_name', 'last_name', 'is_operator', 'created_at'] as const;

export const findUser = (ex: Executor, id: string): Promise<UsersTable | undefined> =>
  ex.selectFrom('users').select(userColumns).where('id', '=', id).executeTakeFirst();

export const findUserByEmail = (ex: Executor, email: string): Promise<UsersTable | undefined> =>
  ex.selectFrom('users').select(userColumns).where('email', '=', email).executeTakeFirst();

export function listUsers(ex: Executor, organizationId?: string) {
  let q = ex
    .selectFrom('users')
    .leftJoin('org_memberships', 'org_memberships.user_id', 'users.id')
    .select(['users.id', 'users.email', 'users.first_name', 'users.last_name', 'org_memberships.organization_id', 'org_memberships.role'])
    .orderBy('users.created_at')
    .orderBy('users.id');
  if (organizationId) q = q.where('org_memberships.organization_id', '=', organizationId);
  return q.execute();
}

/** User summaries by id, for embedding in resources; one query whatever the number of ids. */
export async function userSummaries(ex: Executor, ids: Iterable<string>): Promise<Map<string, UserSummary>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, UserSummary>();
  if (unique.length === 0) return out;
  const rows = await ex.selectFrom('users').select(['id', 'first_name', 'last_name', 'email']).where('id', 'in', unique).execute();
  for (const r of rows) out.set(r.id, r);
  return out;
}

/** Adds the membership or sets its role; true when an existing membership's role changed. */
export async function upsertOrgMembership(
  ex: Executor,
  organizationId: string,
  userId: string,
  role: 'admin' | 'member',
  now: string,
): Promise<boolean> {
  const existing = await ex
    .selectFrom('org_memberships')
    .select('role')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!existing) {
    await ex.insertInto('org_memberships').values({ organization_id: organizationId, user_id: userId, role, created_at: now }).execute();
    return false;
  }
  if (existing.role === role) return false;
  await ex
    .updateTable('org_memberships')
    .set({ role })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
  return true;
}

export const findOrgMembership = (ex: Executor, organizationId: string, userId: string) =>
  ex
    .selectFrom('org_memberships')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

export async function insertToken(
  ex: Executor,
  row: {
    id: string;
    user_id: string;
    organization_id: string;
    name: string | null;
    token_hash: string;
    created_at: string;
    expires_at?: string | null;
  },
) {
  await ex
    .insertInto('access_tokens')
    .values({ ...row, last_used_at: null, revoked_at: null })
    .execute();
}

/** The token with everything authentication needs, in one query: not revoked, not expired, membership active. */
export const findActiveTokenByHash = (ex: Executor, tokenHash: string, now: string) =>
  ex
    .selectFrom('access_tokens')
    .innerJoin('users', 'users.id', 'access_tokens.user_id')
    .innerJoin('org_memberships', (j) =>
      j
        .onRef('org_memberships.user_id', '=', 'access_tokens.user_id')
        .onRef('org_memberships.organization_id', '=', 'access_tokens.organization_id'),
    )
    .select([
      'access_tokens.id as token_id',
      'access_tokens.user_id',
      'access_tokens.organization_id',
      'access_tokens.last_used_at',
      'access_tokens.expires_at',
      'org_memberships.role',
    ])
    .where('access_tokens.token_hash', '=', tokenHash)
    .where('access_tokens.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('access_tokens.expires_at', 'is', null), eb('access_tokens.expires_at', '>', now)]))
    .where('org_memberships.deactivated_at', 'is', null)
    .executeTakeFirst();

export async function touchToken(ex: Executor, tokenId: string, now: string): Promise<void> {
  await ex.updateTable('access_tokens').set({ last_used_at: now }).where('id', '=', tokenId).execute();
}

export async function revokeToken(ex: Executor, tokenId: string, now: string): Promise<number> {
  const r = await ex
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('id', '=', tokenId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export const findToken = (ex: Executor, tokenId: string) =>
  ex
    .selectFrom('access_tokens')
    .select(['id', 'user_id', 'organization_id', 'name', 'created_at', 'last_used_at', 'revoked_at', 'expires_at'])
    .where('id', '=', tokenId)
    .executeTakeFirst();

export function listTokens(ex: Executor, filter: { userId?: string; organizationId?: string }) {
  let q = ex
    .selectFrom('access_tokens')
    .select(['id', 'user_id', 'organization_id', 'name', 'created_at', 'last_used_at', 'revoked_at', 'expires_at'])
    .orderBy('created_at')
    .orderBy('id');
  if (filter.userId) q = q.where('user_id', '=', filter.userId);
  if (filter.organizationId) q = q.where('organization_id', '=', filter.organizationId);
  return q.execute();
}

/** Tokens that still work (not revoked, not expired) of one organization, or of one user in it; a page and the total. */
export async function pageLiveTokens(ex: Executor, filter: { organizationId: string; userId?: string }, now: string, page: Page) {
  let base = ex
    .selectFrom('access_tokens')
    .where('organization_id', '=', filter.organizationId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  if (filter.userId) base = base.where('user_id', '=', filter.userId);
  return pagedList(
    base,
    base.select(['id', 'user_id', 'name', 'created_at', 'expires_at', 'last_used_at']).orderBy('created_at').orderBy('id'),
    page,
  );
}

/** Revokes every live token of a user in one organization (deactivation). */
export async function revokeUserTokens(ex: Executor, userId: string, organizationId: string, now: string): Promise<void> {
  await ex
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('organization_id', '=', organizationId)
    .where('revoked_at', 'is', null)
    .execute();
}

const orgUsers = (ex: Executor, organizationId: string) =>
  ex
    .selectFrom('org_memberships')
    .innerJoin('users', 'users.id', 'org_memberships.user_id')
    .select([
      'users.id',
      'users.first_name',
      'users.last_name',
      'users.email',
      'org_memberships.role',
      'org_memberships.deactivated_at',
      'org_memberships.created_at',
      // While the person cannot sign in here yet (no password: accepting an invitation sets it; never signed in to
      // this organization by single sign-on), the expiry of their newest invitation still out (issuing a link revokes
      // the older ones; deactivating revokes them all).
      (eb) =>
        eb
          .selectFrom('user_links as l')
          .select((e) => e.fn.max('l.expires_at').as('x'))
          .whereRef('l.user_id', '=', 'users.id')
          .whereRef('l.organization_id', '=', 'org_memberships.organization_id')
          .where('l.kind', '=', 'invitation')
          .where('l.used_at', 'is', null)
          .where('l.revoked_at', 'is', null)
          .where('users.password_hash', 'is', null)
          .where((e) =>
            e.not(
              e.exists(
                e
                  .selectFrom('sso_identities as sso')
                  .select('sso.user_id')
                  .whereRef('sso.user_id', '=', 'users.id')
                  .whereRef('sso.organization_id', '=', 'org_memberships.organization_id'),
              ),
            ),
          )
          .as('invitation_expires_at'),
    ])
    .where('org_memberships.organization_id', '=', organizationId);

/**
 * A page of the organization's members and their total; `q` (trimmed, not blank) is text inside "first last" or the
 * e-mail: a LIKE over one organization's people, few enough (src/shared/contains-text.ts).
 */
export async function pageOrganizationUsers(ex: Executor, organizationId: string, page: Page, q?: string) {
  let base = orgUsers(ex, organizationId);
  let members = ex
    .selectFrom('org_memberships')
    .innerJoin('users', 'users.id', 'org_memberships.user_id')
    .where('org_memberships.organization_id', '=', organizationId);
  if (q !== undefined) {
    const pattern = containsPattern(q);
    const matches = [
      sql<SqlBool>`lower(users.first_name || ' ' || users.last_name) like ${pattern} escape '\\'`,
      sql<SqlBool>`lower(users.email) like ${pattern} escape '\\'`,
    ];
    base = base.where((eb) => eb.or(matches));
    members = members.where((eb) => eb.or(matches));
  }
  return pagedList(members, base.orderBy('org_memberships.created_at').orderBy('users.id'), page);
}

export const findOrganizationUser = (ex: Executor, organizationId: string, userId: string) =>
  orgUsers(ex, organizationId).where('users.id', '=', userId).executeTakeFirst();

export async function countActiveAdmins(ex: Executor, organizationId: string): Promise<number> {
  const row = await ex
    .selectFrom('org_memberships')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'admin')
    .where('deactivated_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateMembership(
  ex: Executor,
  organizationId: string,
  userId: string,
  set: { role?: 'admin' | 'member'; deactivated_at?: string | null },
): Promise<void> {
  await ex.updateTable('org_memberships').set(set).where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
}

/** Locks the organization's admin memberships (PostgreSQL), so concurrent demotions cannot leave no admin. */
export async function lockOrganizationAdmins(ex: Executor, organizationId: string): Promise<void> {
  await ex
    .selectFrom('org_memberships')
    .select('user_id')
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'admin')
    .forUpdate()
    .execute();
}
