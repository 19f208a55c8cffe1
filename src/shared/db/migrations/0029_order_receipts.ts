import type { Kysely } from 'kysely';

// Ordering tasks (docs/ordering.md, "Ordering, receiving in parts"):
//
// - order_requests.expected_delivery_date: the day the vendor promised, asked for when a request is marked ordered
//   (an application field, read with GET /order-requests/{id}/delivery; the contract's order request is unchanged).
// - order_request_receipts: each receipt of a request, so goods can arrive in parts ("2 of 5") and a request knows
//   the item it went into. item_id and location_id carry no foreign key: the item or the location may be deleted
//   later, and the receipt stays true to what happened.
// - inventory_item_changes.order_request_id: the request an item's history entry received goods from, so the
//   item's history links back to it.
export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text';
  await db.schema.alterTable('order_requests').addColumn('expected_delivery_date', text).execute();
  await db.schema.createTable('order_request_receipts')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('order_request_id', text, (c) => c.notNull().references('order_requests.id'))
    .addColumn('quantity', text, (c) => c.notNull())
    .addColumn('item_id', text, (c) => c.notNull())
    .addColumn('lot_number', text)
    .addColumn('expiration_date', text)
    .addColumn('location_id', text)
    .addColumn('received_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('received_at', text, (c) => c.notNull())
    .addColumn('order_request_event_id', text, (c) => c.notNull().references('order_request_events.id'))
    .execute();
  await db.schema.createIndex('order_request_receipts_order_idx').on('order_request_receipts').columns(['order_request_id', 'received_at']).execute();
  await db.schema.alterTable('inventory_item_changes').addColumn('order_request_id', text).execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
