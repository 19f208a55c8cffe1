import type { Kysely } from 'kysely';

// Issue 22: the claim takes turns between webhooks with due work (src/delivery/claim-repository.ts). It finds each
// webhook with pending deliveries, and that webhook's oldest due ones, by seeks in this index instead of reading a
// backlog. Not a partial index of pending rows: without statistics SQLite preferred deliveries_due_idx and a sort
// of every pending row to it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('deliveries_pending_webhook_idx')
    .on('webhook_deliveries')
    .columns(['status', 'webhook_id', 'next_attempt_at'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
