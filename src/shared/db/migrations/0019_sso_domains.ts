import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

// Single sign-on domains are claimed and proved (docs/auth.md, Single sign-on): a domain belongs to at most one
// organization of the installation, and routes sign-ins by e-mail or creates accounts only once verified, by a
// DNS TXT record or by the operator (`labstock admin sso approve-domain`). The domains already listed in
// organization_sso.allowed_domains are claimed here, oldest configuration first (the one that won before), and
// start unverified: until proved, they no longer let anyone in.
export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text';
  await db.schema.createTable('sso_domains')
    // Lower case; the primary key makes a domain unique across the installation.
    .addColumn('domain', text, (c) => c.primaryKey())
    .addColumn('organization_id', text, (c) => c.notNull().references('organizations.id'))
    // Public: the value the organization publishes in DNS to prove the domain is theirs.
    .addColumn('verification_token', text, (c) => c.notNull())
    .addColumn('verified_at', text)
    // 'dns' or 'operator'; null while unverified.
    .addColumn('verified_by', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_domains_organization_idx').on('sso_domains').columns(['organization_id']).execute();

  const rows: { organization_id: string; allowed_domains: string; created_at: string }[] = await db
    .selectFrom('organization_sso')
    .select(['organization_id', 'allowed_domains', 'created_at'])
    .orderBy('created_at')
    .orderBy('organization_id')
    .execute();
  const claimed = new Set<string>();
  for (const row of rows) {
    let domains: unknown;
    try {
      domains = JSON.parse(row.allowed_domains);
    } catch {
      domains = [];
    }
    if (!Array.isArray(domains)) continue;
    const mine: string[] = [];
    for (const domain of domains) {
      if (typeof domain !== 'string' || claimed.has(domain)) continue;
      claimed.add(domain);
      mine.push(domain);
      await db
        .insertInto('sso_domains')
        .values({
          domain,
          organization_id: row.organization_id,
          verification_token: randomBytes(24).toString('base64url'),
          verified_at: null,
          verified_by: null,
          created_at: row.created_at,
        })
        .execute();
    }
    // A domain another organization had listed first is dropped from this one's list: it was never theirs to use.
    if (mine.length !== domains.length) {
      await db
        .updateTable('organization_sso')
        .set({ allowed_domains: JSON.stringify(mine) })
        .where('organization_id', '=', row.organization_id)
        .execute();
    }
  }
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
