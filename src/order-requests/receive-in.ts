import type { Identifiers } from '../inventory/identifiers.js';
import { receiveGoodsIn } from '../inventory/quantities.js';
import type { Executor } from '../shared/db/database.js';
import { dec } from '../shared/decimal.js';
import type { ServiceDeps } from '../shared/deps.js';
import { newId } from '../shared/ids.js';
import { insertReceipt, receiptsOf } from './receipts-repository.js';
import type { OrderRow } from './repository.js';

// Receiving inside a transaction that already holds the request's lock: the goods go into the lab's inventory and
// the receipt is recorded, so the request knows what arrived, when, into which item and where (migration 0029).

export interface ReceiveDetails {
  lotNumber?: string | null;
  expirationDate?: string | null;
  locationId?: string | null;
  /** GTIN and serial from the vendor's barcode, stored with the new container (src/inventory/identifiers.ts). */
  identifiers?: Identifiers;
}

/** How much of the request has not arrived yet: its quantity less every receipt (exact decimals). */
export async function remainingOf(ex: Executor, row: OrderRow): Promise<string> {
  const receipts = await receiptsOf(ex, row.id);
  return receipts.reduce((left, r) => left.minus(r.quantity), dec(row.quantity)).toFixed();
}

export async function receiveIn(
  trx: Executor,
  deps: ServiceDeps,
  userId: string,
  row: OrderRow,
  what: ReceiveDetails & { quantity: string; historyId: string; at: string },
): Promise<void> {
  const item = await receiveGoodsIn(trx, deps, {
    labId: row.lab_id,
    userId,
    name: row.item_name,
    vendor: row.vendor_name,
    catalogNumber: row.catalog_number,
    quantity: what.quantity,
    typeId: row.type_id,
    unitPrice: row.unit_price,
    unitSize: row.unit_size,
    vendorProductId: row.vendor_product_id,
    note: `received order request ${row.id}`,
    orderRequestId: row.id,
    lotNumber: what.lotNumber ?? null,
    expirationDate: what.expirationDate ?? null,
    locationId: what.locationId ?? null,
    ...(what.identifiers ? { identifiers: what.identifiers } : {}),
  });
  await insertReceipt(trx, {
    id: newId(),
    order_request_id: row.id,
    quantity: what.quantity,
    item_id: item.id,
    lot_number: what.lotNumber ?? null,
    expiration_date: what.expirationDate ?? null,
    location_id: what.locationId ?? null,
    received_by: userId,
    received_at: what.at,
    order_request_event_id: what.historyId,
  });
}
