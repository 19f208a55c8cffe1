import type { Kysely } from 'kysely';

// Issue 22. Two additions, nothing existing changes meaning:
// - user_links.source: who made a link: 'person' (asked for by e-mail), 'admin' (an org admin) or 'operator' (the
//   command line). A new reset link replaces only the older ones of its own source, so an anonymous request cannot
//   revoke the link an admin or the operator made, nor the other way round (src/accounts/links.ts).
// - sign_in_throttle.pending: attempts reserved and being verified. Sign-in counts an attempt before verifying its
//   password, so parallel guesses cannot all be checked before the first failure counts (src/accounts/throttle.ts);
//   pending_at is the newest reservation's time, so a count left by a process that died mid-check runs out.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_links').addColumn('source', 'text', (c) => c.notNull().defaultTo('operator')).execute();
  await db.updateTable('user_links').set({ source: 'admin' }).where('created_by', 'is not', null).execute();
  // Before this column, a reset the person asked for was the one of no maker and no organization that lived an hour
  // (src/accounts/links.ts LINK_LIFETIME_MS); the operator's lived a day.
  const unmade = await db
    .selectFrom('user_links')
    .select(['id', 'created_at', 'expires_at'])
    .where('kind', '=', 'password_reset')
    .where('created_by', 'is', null)
    .where('organization_id', 'is', null)
    .execute();
  const requested = unmade.filter((r) => Date.parse(r.expires_at) - Date.parse(r.created_at) <= 60 * 60_000).map((r) => r.id as string);
  for (let i = 0; i < requested.length; i += 500) {
    await db.updateTable('user_links').set({ source: 'person' }).where('id', 'in', requested.slice(i, i + 500)).execute();
  }

  await db.schema.alterTable('sign_in_throttle').addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('sign_in_throttle').addColumn('pending_at', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
