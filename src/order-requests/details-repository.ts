import type { Executor } from '../shared/db/database.js';
import type { OrderRequestsTable } from '../shared/db/schema.js';

// Order details (src/order-requests/details.ts): the detail columns of a request.

export type DetailColumns = Partial<
  { expected_delivery_date: string | null } & Pick<
    OrderRequestsTable,
    | 'notes'
    | 'unit_size'
    | 'invoice_number'
    | 'requisition_number'
    | 'confirmation_number'
    | 'tracking_number'
    | 'purchase_order_number'
    | 'shipping_and_handling'
    | 'details'
    | 'is_urgent'
    | 'spend_tracking_code'
  >
>;

export async function setDetails(ex: Executor, id: string, set: DetailColumns, userId: string, now: string): Promise<void> {
  await ex
    .updateTable('order_requests')
    .set({ ...set, updated_by: userId, updated_at: now })
    .where('id', '=', id)
    .execute();
}
