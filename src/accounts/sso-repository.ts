import type { Executor } from '../shared/db/database.js';
import type { OrganizationSsoTable, SsoFlowsTable, SsoIdentitiesTable } from '../shared/db/schema.js';

// Queries of single sign-on (docs/auth.md, Single sign-on): each organization's settings, the identities linked
// to users, and the sign-ins started in a browser.

export const findSsoSettings = (ex: Executor, organizationId: string): Promise<OrganizationSsoTable | undefined> =>
  ex.selectFrom('organization_sso').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();

/** Insert or replace one organization's settings (the primary key is the organization). */
export async function saveSsoSettings(ex: Executor, row: OrganizationSsoTable): Promise<void> {
  const { organization_id: _id, created_at: _created, ...changes } = row;
  await ex
    .insertInto('organization_sso')
    .values(row)
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(changes))
    .execute();
}

export async function deleteSsoSettings(ex: Executor, organizationId: string): Promise<number> {
  const result = await ex.deleteFrom('organization_sso').where('organization_id', '=', organizationId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export const findIdentity = (ex: Executor, organizationId: string, issuer: string, subject: string) =>
  ex
    .selectFrom('sso_identities')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();

/** How many subjects of this issuer are linked to the user in the organization. */
export async function identitiesOf(ex: Executor, organizationId: string, issuer: string, userId: string): Promise<number> {
  const row = await ex
    .selectFrom('sso_identities')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('issuer', '=', issuer)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertIdentity(ex: Executor, row: SsoIdentitiesTable): Promise<void> {
  // Two first sign-ins of the same subject at once: the second finds the link already made.
  await ex
    .insertInto('sso_identities')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function touchIdentity(ex: Executor, key: Pick<SsoIdentitiesTable, 'organization_id' | 'issuer' | 'subject'>, at: string) {
  await ex
    .updateTable('sso_identities')
    .set({ last_sign_in_at: at })
    .where('organization_id', '=', key.organization_id)
    .where('issuer', '=', key.issuer)
    .where('subject', '=', key.subject)
    .execute();
}

export async function insertFlow(ex: Executor, row: SsoFlowsTable): Promise<void> {
  await ex.insertInto('sso_flows').values(row).execute();
}

export async function deleteExpiredFlows(ex: Executor, now: string): Promise<void> {
  await ex.deleteFrom('sso_flows').where('expires_at', '<=', now).execute();
}

/** Reads and deletes a flow in one go: a callback consumes it whatever happens next, so it is never used twice. */
export async function takeFlow(ex: Executor, idHash: string): Promise<SsoFlowsTable | undefined> {
  const row = await ex.selectFrom('sso_flows').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
  if (!row) return undefined;
  const result = await ex.deleteFrom('sso_flows').where('id_hash', '=', idHash).executeTakeFirst();
  // Two callbacks racing with the same cookie: only the one that deleted the row goes on.
  return Number(result.numDeletedRows) === 1 ? row : undefined;
}
