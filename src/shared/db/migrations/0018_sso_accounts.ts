import { type Kysely, sql } from 'kysely';

// Issue 22 (docs/auth.md, Single sign-on; docs/alerts.md, Preferences):
//
// - sso_flows.link_user_id: a flow started by a signed-in person to link the provider to their own account
//   (POST /auth/sso/link). A provider never signs in an existing account by e-mail alone; it signs in the accounts
//   it created and those linked this way.
// - digest_preferences: the daily digest on or off per person and organization, so that a session of one
//   organization cannot turn off what the person receives from another. The person's old setting (one for all
//   organizations, notification_preferences.email_digest, no longer read) is copied to each of their memberships.
// - user_links.invited_role: an invitation of an account that exists already (another organization's person). It
//   makes no membership until the person accepts; the membership, with this role, is made then (item 9).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_links').addColumn('invited_role', 'text').execute();
  await db.schema.alterTable('sso_flows').addColumn('link_user_id', 'text').execute();
  await db.schema
    .createTable('digest_preferences')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('email_digest', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('digest_preferences_pk', ['user_id', 'organization_id'])
    .execute();
  await sql`insert into digest_preferences (user_id, organization_id, email_digest, updated_at)
    select p.user_id, m.organization_id, p.email_digest, p.updated_at
    from notification_preferences p join org_memberships m on m.user_id = p.user_id`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
