import { type Kysely, sql } from 'kysely';

// An order request records the shop line it was checked out into, set by the checkout in its own transaction,
// so order requests decide "does this request follow the shop?" from their own row and never read the shop's
// tables (docs/decisions/0008-shop-and-order-requests.md). Requests checked out before this migration get the
// marker from their line: at most one line per request, as the checkout refuses a second.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_requests').addColumn('checked_out_line_id', 'text').execute();
  await sql`update order_requests set checked_out_line_id = (
    select sales_order_items.id from sales_order_items where sales_order_items.order_request_id = order_requests.id
  )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
