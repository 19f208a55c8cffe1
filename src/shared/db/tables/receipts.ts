import type { ColumnType } from 'kysely';

// Ordering tasks (migration 0029, docs/ordering.md "Ordering, receiving in parts"): what was received of a request,
// the day the vendor promised it, and which request an item's history entry received goods from.

/** Optional on insert (older writers leave it null), always present when read. */
type Added = ColumnType<string | null, string | null | undefined, string | null>;

export interface OrderDeliveryColumns {
  expected_delivery_date: Added;
}
export interface ItemChangeSourceColumns {
  order_request_id: Added;
}
export interface OrderReceiptsTable {
  id: string;
  order_request_id: string;
  /** A decimal string: what arrived in this receipt. */
  quantity: string;
  /** The item the goods went into (no foreign key: the item may be deleted later). */
  item_id: string;
  lot_number: string | null;
  expiration_date: string | null;
  location_id: string | null;
  received_by: string;
  received_at: string;
  /** The request's history entry that tells of this receipt. */
  order_request_event_id: string;
}
