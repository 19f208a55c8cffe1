import { type Kysely, sql } from 'kysely';

// Order details, spend tracking codes and budgets (docs/ordering.md, docs/product.md §13):
//
// - spend_tracking_codes: a lab's named codes, unique per lab, with the period their spend is reported by
//   ('month' | 'quarter' | 'year', calendar periods in UTC) and an optional budget for each period (a major-unit
//   decimal string and its currency, both null without a budget). Requests name their code in
//   order_requests.spend_tracking_code (the contract's `{name}`), so a code is never renamed.
// - lab_spend_settings: what exceeding a budget does in a lab ('warn' | 'block'); without a row, 'warn'.
// - order_requests.ordered_at: when the request last entered ORDERED from CREATED or APPROVED, the instant that puts
//   its money in a budget period. Requests ordered before this migration take the latest ORDERED entry of their
//   history (for a request re-ordered after a backorder, that is the re-order: the history does not say which).
export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text';
  await db.schema.createTable('spend_tracking_codes')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('lab_id', text, (c) => c.notNull().references('labs.id'))
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('period', text, (c) => c.notNull())
    .addColumn('budget_amount', text)
    .addColumn('budget_currency', text)
    .addColumn('created_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .addUniqueConstraint('spend_tracking_codes_lab_name', ['lab_id', 'name'])
    .execute();

  await db.schema.createTable('lab_spend_settings')
    .addColumn('lab_id', text, (c) => c.primaryKey().references('labs.id'))
    .addColumn('over_budget', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();

  await db.schema.alterTable('order_requests').addColumn('ordered_at', text).execute();
  await sql`update order_requests set ordered_at = (
    select max(e.created_at) from order_request_events e where e.order_request_id = order_requests.id and e.type = 'ORDERED'
  ) where status in ('ORDERED', 'BACKORDERED', 'RECEIVED')`.execute(db);
  await db.schema.createIndex('order_requests_spend_idx').on('order_requests').columns(['lab_id', 'spend_tracking_code', 'ordered_at']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
