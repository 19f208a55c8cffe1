import type { Kysely } from 'kysely';

// One-time links (docs/auth.md, Invitations and password resets): an invitation (accepting it sets the name and the
// password and signs in) or a password reset. The link's secret is 32 random bytes shown once; only its SHA-256 is
// stored. A link is valid while used_at and revoked_at are null and expires_at is ahead; using it sets used_at in
// the same statement that checks all three, so two uses at once cannot both succeed.
export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text';
  await db.schema.createTable('user_links')
    .addColumn('id', text, (c) => c.primaryKey())
    // 'invitation' | 'password_reset'
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('user_id', text, (c) => c.notNull().references('users.id'))
    // The organization whose admin issued it (invitations always; admin-made resets); null for a reset the person
    // asked for by e-mail or an operator made with the CLI.
    .addColumn('organization_id', text, (c) => c.references('organizations.id'))
    .addColumn('token_hash', text, (c) => c.notNull().unique())
    // The admin who issued it; null when the person asked for it, or the CLI made it.
    .addColumn('created_by', text, (c) => c.references('users.id'))
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('expires_at', text, (c) => c.notNull())
    .addColumn('used_at', text)
    // Superseded by a newer link of the same kind, the membership deactivated, or the password set another way.
    .addColumn('revoked_at', text)
    .execute();
  await db.schema.createIndex('user_links_user_idx').on('user_links').columns(['user_id', 'kind', 'created_at']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
