import type { Executor } from '../shared/db/database.js';
import type { OrderReceiptsTable } from '../shared/db/schema.js';

// What arrived of a request, in parts (migration 0029, docs/ordering.md "Ordering, receiving in parts").

export type ReceiptRow = OrderReceiptsTable;

export async function insertReceipt(ex: Executor, row: ReceiptRow): Promise<void> {
  await ex.insertInto('order_request_receipts').values(row).execute();
}

/** A request's receipts, oldest first. */
export const receiptsOf = (ex: Executor, orderId: string) =>
  ex
    .selectFrom('order_request_receipts')
    .selectAll()
    .where('order_request_id', '=', orderId)
    .orderBy('received_at')
    .orderBy('id')
    .execute();

export async function expectedDeliveryOf(ex: Executor, orderId: string): Promise<string | null> {
  const row = await ex.selectFrom('order_requests').select('expected_delivery_date').where('id', '=', orderId).executeTakeFirst();
  return row?.expected_delivery_date ?? null;
}
