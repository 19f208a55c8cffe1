import type { Kysely } from 'kysely';

// OpenID Connect single sign-on per organization (docs/auth.md, Single sign-on). Three new tables, nothing existing
// changes: an organization without a row in organization_sso signs in with passwords only, as before.
export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text';
  await db.schema.createTable('organization_sso')
    .addColumn('organization_id', text, (c) => c.primaryKey().references('organizations.id'))
    .addColumn('issuer', text, (c) => c.notNull())
    .addColumn('client_id', text, (c) => c.notNull())
    // Sent to the provider's token endpoint, so it is kept as is; the API never returns it.
    .addColumn('client_secret', text, (c) => c.notNull())
    // JSON array of lower-case domains; e-mail addresses there get an account at their first sign-in.
    .addColumn('allowed_domains', text, (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();

  // Who a provider's subject is in one organization: a changed e-mail at the provider still signs in the same user.
  await db.schema.createTable('sso_identities')
    .addColumn('organization_id', text, (c) => c.notNull().references('organizations.id'))
    .addColumn('issuer', text, (c) => c.notNull())
    .addColumn('subject', text, (c) => c.notNull())
    .addColumn('user_id', text, (c) => c.notNull().references('users.id'))
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('last_sign_in_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('sso_identities_pk', ['organization_id', 'issuer', 'subject'])
    .execute();

  // A sign-in started in one browser: the cookie holds a random value, the row its SHA-256 and what the callback
  // must check (state, nonce, the PKCE verifier). Used once, then deleted; short-lived.
  await db.schema.createTable('sso_flows')
    .addColumn('id_hash', text, (c) => c.primaryKey())
    .addColumn('organization_id', text, (c) => c.notNull().references('organizations.id'))
    .addColumn('state', text, (c) => c.notNull())
    .addColumn('nonce', text, (c) => c.notNull())
    .addColumn('code_verifier', text, (c) => c.notNull())
    .addColumn('return_to', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('expires_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_flows_expires_idx').on('sso_flows').columns(['expires_at']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
