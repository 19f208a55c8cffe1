import type { Executor } from '../shared/db/database.js';

// Approved requests whose goods have not all arrived (docs/safety.md "The race"): an approval counts them against
// the control areas that hold their product, so two approvals cannot each pass against the same stored amount.
// Each request is matched to the lab's item of the same vendor and catalog number (as receiving matches it).

export async function pendingRequestsOf(ex: Executor, labId: string, excludeId: string) {
  const rows = await ex
    .selectFrom('order_requests as o')
    .innerJoin('inventory_items as it', (join) =>
      join.onRef('it.lab_id', '=', 'o.lab_id').onRef('it.vendor', '=', 'o.vendor_name').onRef('it.catalog_number', '=', 'o.catalog_number'),
    )
    .select(['o.id', 'o.quantity', 'o.item_name', 'o.unit_size', 'it.id as item_id', 'it.type_id', 'it.unit_size as item_unit_size'])
    .where('o.lab_id', '=', labId)
    .where('o.status', 'in', ['APPROVED', 'ORDERED', 'BACKORDERED'])
    .where('o.id', '!=', excludeId)
    .execute();
  if (rows.length === 0) return [];
  const receipts = await ex
    .selectFrom('order_request_receipts')
    .select(['order_request_id', 'quantity'])
    .where(
      'order_request_id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  return rows.map((r) => ({ ...r, received: receipts.filter((x) => x.order_request_id === r.id).map((x) => x.quantity) }));
}
