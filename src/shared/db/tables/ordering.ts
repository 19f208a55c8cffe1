// Buying: order requests and their events (src/order-requests/), the vendor catalogue (src/catalogue/), and shop
// orders, their lines and shipments (src/shop/).
// Column choices (text ids, dates and decimals; 0/1 booleans): src/shared/db/schema.ts.

export type OrderStatus = 'CREATED' | 'CANCELLED' | 'APPROVED' | 'ORDERED' | 'BACKORDERED' | 'RECEIVED';
export interface OrderRequestsTable {
  id: string;
  lab_id: string;
  type_id: string;
  status: OrderStatus;
  item_name: string;
  vendor_name: string;
  catalog_number: string;
  vendor_product_id: string | null;
  quantity: string;
  unit_size: string | null;
  unit_price: string;
  currency: string;
  notes: string | null;
  required_before: string | null;
  invoice_number: string | null;
  requisition_number: string | null;
  confirmation_number: string | null;
  tracking_number: string | null;
  purchase_order_number: string | null;
  shipping_and_handling: string | null;
  details: string | null;
  spend_tracking_code: string | null;
  backordered_expected_at: string | null;
  is_urgent: number;
  requested_by: string;
  created_by: string;
  updated_by: string;
  requested_at: string;
  updated_at: string;
  created_at: string;
  /** The shop line the request was checked out into (migration 0008), set by the checkout; null if never. */
  checked_out_line_id: string | null;
  /** When it last entered ORDERED from CREATED or APPROVED (migration 0015): the instant that dates its spend. */
  ordered_at: string | null;
}
/** A lab's spend tracking code (migration 0015); requests name it in order_requests.spend_tracking_code. */
export interface SpendTrackingCodesTable {
  id: string;
  lab_id: string;
  name: string;
  period: 'month' | 'quarter' | 'year';
  /** Major-unit decimal string per period, with its currency; both null when the code has no budget. */
  budget_amount: string | null;
  budget_currency: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}
export interface LabSpendSettingsTable {
  lab_id: string;
  over_budget: 'warn' | 'block';
  updated_at: string;
}
export interface OrderRequestEventsTable {
  id: string;
  order_request_id: string;
  type: string;
  comment: string | null;
  created_by: string;
  created_at: string;
}
export interface VendorProductsTable {
  id: string;
  item_name: string;
  catalog_number: string;
  vendor_name: string;
  unit_name: string;
  unit_symbol: string;
  unit_amount: string;
  price_amount: string;
  currency: string;
  created_at: string;
  search_text: string;
  updated_at: string | null;
}
export interface SalesOrdersTable {
  id: string;
  key: string;
  lab_id: string;
  payment_method: string;
  purchase_order_number: string | null;
  is_test: number;
  shipping_amount: string;
  handling_amount: string;
  tax_amount: string;
  total_amount: string;
  currency: string;
  placed_by: string;
  created_at: string;
}
export interface SalesOrderItemsTable {
  id: string;
  sales_order_id: string;
  order_request_id: string;
  vendor_product_id: string;
  status: string;
  quantity: number;
  sell_price_amount: string;
  currency: string;
  estimated_shipment_date: string | null;
  estimated_delivery_date: string | null;
  created_at: string;
  updated_at: string;
  backordered_expected_at: string | null;
  cancel_reason: string | null;
}
export interface ShipmentsTable {
  id: string;
  sales_order_item_id: string;
  carrier: string;
  tracking: string;
  quantity: number;
  shipped_at: string;
  delivered_at: string | null;
  created_at: string;
}
