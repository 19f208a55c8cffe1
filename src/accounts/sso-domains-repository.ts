import type { Executor } from '../shared/db/database.js';
import type { SsoDomainsTable } from '../shared/db/schema.js';

// Queries of the claimed single sign-on domains (src/shared/db/migrations/0019_sso_domains.ts): a domain belongs
// to at most one organization of the installation (its primary key), and counts for sign-in once verified.

export const listDomains = (ex: Executor, organizationId: string): Promise<SsoDomainsTable[]> =>
  ex.selectFrom('sso_domains').selectAll().where('organization_id', '=', organizationId).orderBy('domain').execute();

export const findDomain = (ex: Executor, domain: string): Promise<SsoDomainsTable | undefined> =>
  ex.selectFrom('sso_domains').selectAll().where('domain', '=', domain).executeTakeFirst();

/** Claims a domain unless some organization holds it already; true when this row was inserted. */
export async function claimDomain(ex: Executor, row: SsoDomainsTable): Promise<boolean> {
  // ON CONFLICT DO NOTHING: a concurrent claim of the same domain (PostgreSQL) waits for the other transaction
  // and then inserts nothing, instead of failing with a unique violation.
  const result = await ex
    .insertInto('sso_domains')
    .values(row)
    .onConflict((oc) => oc.column('domain').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** Releases an organization's claims on every domain not in `keep`. */
export async function releaseDomains(ex: Executor, organizationId: string, keep: string[]): Promise<void> {
  let query = ex.deleteFrom('sso_domains').where('organization_id', '=', organizationId);
  if (keep.length > 0) query = query.where('domain', 'not in', keep);
  await query.execute();
}

export async function markVerified(
  ex: Executor,
  key: { domain: string; organizationId: string },
  how: 'dns' | 'operator',
  at: string,
): Promise<number> {
  const result = await ex
    .updateTable('sso_domains')
    .set({ verified_at: at, verified_by: how })
    .where('domain', '=', key.domain)
    .where('organization_id', '=', key.organizationId)
    .where('verified_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The organization whose verified claim covers a domain, if any. */
export const verifiedOwner = async (ex: Executor, domain: string): Promise<string | undefined> =>
  (
    await ex
      .selectFrom('sso_domains')
      .select('organization_id')
      .where('domain', '=', domain)
      .where('verified_at', 'is not', null)
      .executeTakeFirst()
  )?.organization_id;

export const verifiedDomains = async (ex: Executor, organizationId: string): Promise<string[]> =>
  (
    await ex
      .selectFrom('sso_domains')
      .select('domain')
      .where('organization_id', '=', organizationId)
      .where('verified_at', 'is not', null)
      .execute()
  ).map((r) => r.domain);
