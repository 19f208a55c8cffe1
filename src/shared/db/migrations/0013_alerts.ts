import { type Kysely, sql } from 'kysely';

// Reminders and alerts (docs/alerts.md, src/alerts/): what fired for which item and why, who is still to hear of it
// in their daily digest, and each person's notification preferences.
//
// - alerts: one row per firing. An open alert (cleared_at null) is unique per (item_id, cause): the partial unique
//   index is what makes two workers on PostgreSQL fire an alert once (INSERT … ON CONFLICT DO NOTHING in the
//   transaction that writes the event). No foreign key to the item: a deleted item clears its alerts.
// - alert_notices: (user, alert) pairs still to go out in that person's next digest; deleted once sent.
// - notification_preferences: one row per person who has one or who has had a digest; without a row the defaults
//   apply (email digest on).
export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text';
  await db.schema.createTable('alerts')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('item_id', text, (c) => c.notNull())
    .addColumn('lab_id', text, (c) => c.notNull().references('labs.id'))
    .addColumn('organization_id', text, (c) => c.notNull().references('organizations.id'))
    // 'expiring' | 'below_minimum'
    .addColumn('cause', text, (c) => c.notNull())
    // What the digest shows, as it was when the alert fired (the item may be renamed or deleted since).
    .addColumn('item_name', text, (c) => c.notNull())
    .addColumn('lab_name', text, (c) => c.notNull())
    .addColumn('detail', text, (c) => c.notNull())
    .addColumn('fired_at', text, (c) => c.notNull())
    .addColumn('cleared_at', text)
    .execute();
  await sql`create unique index alerts_open_idx on alerts (item_id, cause) where cleared_at is null`.execute(db);
  await db.schema.createIndex('alerts_cleared_idx').on('alerts').columns(['cleared_at']).execute();

  await db.schema.createTable('alert_notices')
    .addColumn('user_id', text, (c) => c.notNull().references('users.id'))
    .addColumn('alert_id', text, (c) => c.notNull().references('alerts.id'))
    .addColumn('created_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('alert_notices_pk', ['user_id', 'alert_id'])
    .execute();
  await db.schema.createIndex('alert_notices_alert_idx').on('alert_notices').columns(['alert_id']).execute();

  await db.schema.createTable('notification_preferences')
    .addColumn('user_id', text, (c) => c.primaryKey().references('users.id'))
    .addColumn('email_digest', 'integer', (c) => c.notNull())
    .addColumn('last_digest_at', text)
    // A worker sending this person's digest owns it until then (several workers on PostgreSQL).
    .addColumn('digest_lease_until', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
