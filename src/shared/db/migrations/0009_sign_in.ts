import type { Kysely } from 'kysely';

// People sign in (docs/auth.md): passwords on users, server-side sessions, sign-in throttling, token expiry,
// deactivated memberships and archived labs. Everything is added, nothing existing changes meaning: a user without
// a password cannot sign in, a token without expires_at never expires, a membership without deactivated_at is active.
export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text';
  // argon2id in PHC string form (src/accounts/passwords.ts); null = no password set (tokens only).
  await db.schema.alterTable('users').addColumn('password_hash', text).execute();
  await db.schema.alterTable('users').addColumn('password_changed_at', text).execute();
  // A deactivated member's tokens and sessions stop authenticating at once (the authentication joins check it).
  await db.schema.alterTable('org_memberships').addColumn('deactivated_at', text).execute();
  await db.schema.alterTable('access_tokens').addColumn('expires_at', text).execute();
  await db.schema.createIndex('access_tokens_user_idx').on('access_tokens').columns(['user_id', 'organization_id', 'created_at']).execute();
  await db.schema.createIndex('access_tokens_org_idx').on('access_tokens').columns(['organization_id', 'created_at']).execute();
  await db.schema.alterTable('labs').addColumn('archived_at', text).execute();

  await db.schema.createTable('sessions')
    .addColumn('id', text, (c) => c.primaryKey())
    // SHA-256 of the cookie's opaque value; the value itself is never stored. The previous value stays valid for a
    // short grace after a rotation, so requests already in flight with it are not signed out.
    .addColumn('secret_hash', text, (c) => c.notNull().unique())
    .addColumn('previous_secret_hash', text)
    .addColumn('rotated_at', text, (c) => c.notNull())
    .addColumn('user_id', text, (c) => c.notNull().references('users.id'))
    .addColumn('organization_id', text, (c) => c.notNull().references('organizations.id'))
    // Not a credential on its own (it is useless without the cookie): kept as is so GET /auth/session can return it.
    .addColumn('csrf_token', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('last_seen_at', text, (c) => c.notNull())
    .addColumn('expires_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_previous_idx').on('sessions').columns(['previous_secret_hash']).execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').columns(['user_id', 'organization_id']).execute();

  await db.schema.createTable('sign_in_throttle')
    // "account:<sha256 of the e-mail>" or "address:<client address>".
    .addColumn('key', text, (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', text, (c) => c.notNull())
    .addColumn('locked_until', text)
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
