import type { Kysely } from 'kysely';

// Webhook delivery: one delivery per (event, webhook) fan-out, leased by a worker while it is attempted; one
// attempt row per HTTP try (the delivery log).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull()) // pending | succeeded | failed | cancelled
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('leased_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('deliveries_webhook_idx').on('webhook_deliveries').columns(['webhook_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('deliveries_event_idx').on('webhook_deliveries').columns(['event_id']).execute();

  await db.schema.createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('response_body', 'text')
    .execute();
  await db.schema.createIndex('attempts_delivery_idx').on('webhook_attempts').columns(['delivery_id', 'attempted_at']).execute();
  await db.schema.createIndex('attempts_webhook_idx').on('webhook_attempts').columns(['webhook_id', 'attempted_at']).execute();

  await db.schema.alterTable('webhooks').addColumn('last_success_at', 'text').execute();
  await db.schema.alterTable('webhooks').addColumn('failing_since', 'text').execute();
  await db.schema.alterTable('webhooks').addColumn('verify_pending', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('events_time_idx').on('events').columns(['created_at']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
