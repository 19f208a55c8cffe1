// Row types of every table. Portable column choices, decided once (docs/decisions/0002-portable-storage.md):
// ids are UUID text; date-times are RFC 3339 UTC text (sorts the same on both databases); booleans are 0/1
// integers (better-sqlite3 cannot bind JS booleans); decimals and money are text, computed with decimal.js.

import type { InventoryItemSearchTable, InventorySearchColumns } from './schema-inventory-search.js';

export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: string;
}
export interface UsersTable {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  is_operator: number;
  created_at: string;
}
export interface OrgMembershipsTable {
  organization_id: string;
  user_id: string;
  role: 'admin' | 'member';
  created_at: string;
}
export interface LabsTable {
  id: string;
  organization_id: string;
  name: string;
  uses_instances: number;
  created_at: string;
}
/** A lab's migration to instances (src/lab-migration/service.ts): all null until one starts. */
export interface LabMigrationColumns {
  migration_started_at: string | null;
  migration_started_by: string | null;
  migration_updated_at: string | null;
  migration_finished_at: string | null;
  migration_items_total: number | null;
  migration_items_done: number | null;
  migration_cursor_created_at: string | null;
  migration_cursor_id: string | null;
}
export interface LabMembershipsTable {
  lab_id: string;
  user_id: string;
  created_at: string;
}
export interface AccessTokensTable {
  id: string;
  user_id: string;
  organization_id: string;
  name: string | null;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
/** Service operators (docs/decisions/0004-operators.md): principals of the service, bound to no organization. */
export interface OperatorsTable {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  user_id: string;
  created_at: string;
  disabled_at: string | null;
}
export interface OperatorTokensTable {
  id: string;
  operator_id: string;
  name: string | null;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
export interface OperatorAuditTable {
  id: string;
  operator_id: string;
  action: string;
  sales_order_item_id: string | null;
  shipment_id: string | null;
  outcome: string;
  via: string;
  token_id: string | null;
  request_id: string | null;
  detail: string | null;
  created_at: string;
}
export interface TypesTable {
  id: string;
  lab_id: string;
  name: string;
  name_key: string;
  created_at: string;
  updated_at: string;
}
export interface LocationsTable {
  id: string;
  lab_id: string;
  parent_id: string | null;
  name: string;
  created_at: string;
}
export interface InventoryItemsTable {
  id: string;
  lab_id: string;
  type_id: string | null;
  name: string;
  vendor: string | null;
  catalog_number: string | null;
  price: string | null;
  unit_size: string | null;
  quantity: string;
  url: string | null;
  technical_details: string | null;
  expiration_date: string | null;
  auto_reminder: string | null;
  lot_number: string | null;
  cas_number: string | null;
  vendor_product_id: string | null;
  location_name: string | null;
  sublocation_name: string | null;
  serial_number: string | null;
  added_by: string;
  updated_by: string;
  version: number;
  created_at: string;
  updated_at: string;
}
export interface InstancesTable {
  id: string;
  item_id: string;
  quantity: string;
  lot_number: string | null;
  expiration_date: string | null;
  location_id: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}
export interface ItemChangesTable {
  id: string;
  item_id: string;
  instance_id: string | null;
  user_id: string;
  field: string;
  old_value: string | null;
  new_value: string | null;
  note: string | null;
  created_at: string;
}
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
export interface WebhooksTable {
  id: string;
  organization_id: string;
  lab_id: string | null;
  name: string | null;
  url: string;
  event_types: string;
  is_enabled: number;
  is_verified: number;
  is_signed: number;
  signing_key: string;
  previous_signing_key: string | null;
  previous_key_expires_at: string | null;
  content_type: string;
  disabled_reason: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  last_success_at: string | null;
  failing_since: string | null;
  verify_pending: number;
}
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  leased_by: string | null;
  created_at: string;
  completed_at: string | null;
}
export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  webhook_id: string;
  attempted_at: string;
  duration_ms: number;
  status_code: number | null;
  outcome: string;
  error: string | null;
  response_body: string | null;
}
export interface EventsTable {
  id: string;
  type: string;
  organization_id: string;
  lab_id: string | null;
  payload: string;
  created_at: string;
}
export interface IdempotencyKeysTable {
  token_id: string;
  key: string;
  method: string;
  path: string;
  body_hash: string;
  status_code: number;
  response_body: string;
  created_at: string;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  org_memberships: OrgMembershipsTable;
  labs: LabsTable & LabMigrationColumns;
  lab_memberships: LabMembershipsTable;
  access_tokens: AccessTokensTable;
  operators: OperatorsTable;
  operator_tokens: OperatorTokensTable;
  operator_audit: OperatorAuditTable;
  types: TypesTable;
  locations: LocationsTable;
  inventory_items: InventoryItemsTable & InventorySearchColumns;
  inventory_item_search: InventoryItemSearchTable;
  inventory_item_instances: InstancesTable;
  inventory_item_changes: ItemChangesTable;
  order_requests: OrderRequestsTable;
  order_request_events: OrderRequestEventsTable;
  vendor_products: VendorProductsTable;
  sales_orders: SalesOrdersTable;
  sales_order_items: SalesOrderItemsTable;
  shipments: ShipmentsTable;
  webhooks: WebhooksTable;
  events: EventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  idempotency_keys: IdempotencyKeysTable;
}
