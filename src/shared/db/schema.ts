import type {
  LabArchiveColumns,
  MembershipStatusColumns,
  SessionsTable,
  SignInThrottleTable,
  TokenExpiryColumns,
  UserPasswordColumns,
} from './schema-accounts-auth.js';

// Row types of every table. Portable column choices, decided once (docs/decisions/0002-portable-storage.md):
// ids are UUID text; date-times are RFC 3339 UTC text (sorts the same on both databases); booleans are 0/1
// integers (better-sqlite3 cannot bind JS booleans); decimals and money are text, computed with decimal.js.
//
// The row types live in tables/, one file per group of owning folders, and are re-exported here; the Database
// interface below names every table.

import type {
  InventoryDocumentSettingsTable,
  InventoryItemSearchTable,
  InventoryLabCountsTable,
  InventoryPageMarksTable,
  InventorySearchColumns,
} from './schema-inventory-search.js';
import type { AccessTokensTable, OrganizationsTable, OrgMembershipsTable, UserLinksTable, UsersTable } from './tables/accounts.js';
import type { AlertNoticesTable, AlertsTable, DigestPreferencesTable, NotificationPreferencesTable } from './tables/alerts.js';
import type { ApprovalNoticesTable, LabApprovalRulesTable, LabMembershipRoleColumns } from './tables/approvals.js';
import type { AttachmentChunksTable, AttachmentsTable } from './tables/attachments.js';
import type { ControlledItemsTable, ControlledLedgerTable, ControlledWitnessesTable } from './tables/controlled.js';
import type { AttachmentSdsColumns, HazardSetCodesTable, HazardSetsTable } from './tables/hazards.js';
import type { InstanceIdentifiersTable } from './tables/identifiers.js';
import type {
  InstancesTable,
  InventoryItemsTable,
  ItemChangesTable,
  LocationHoldingItemsTable,
  LocationHoldingsTable,
  LocationsTable,
  TypesTable,
} from './tables/inventory.js';
import type { LabelCodesTable } from './tables/labels.js';
import type { LabMembershipsTable, LabMigrationColumns, LabsTable } from './tables/labs.js';
import type { OperatorAuditTable, OperatorsTable, OperatorTokensTable } from './tables/operators.js';
import type {
  LabSpendSettingsTable,
  OrderRequestEventsTable,
  OrderRequestsTable,
  SalesOrderItemsTable,
  SalesOrdersTable,
  ShipmentsTable,
  SpendTrackingCodesTable,
  VendorProductsTable,
} from './tables/ordering.js';
import type { ItemChangeSourceColumns, OrderDeliveryColumns, OrderReceiptsTable } from './tables/receipts.js';
import type { ControlAreasTable, LabSafetySettingsTable, StorageAttributesTable } from './tables/safety.js';
import type { OrganizationSsoTable, SsoDomainsTable, SsoFlowsTable, SsoIdentitiesTable } from './tables/sso.js';
import type { ItemChangeStocktakeColumns, StocktakeCountsTable, StocktakeSessionsTable } from './tables/stocktake.js';
import type { EventsTable, IdempotencyKeysTable, WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from './tables/webhooks.js';

export type * from './tables/accounts.js';
export type * from './tables/alerts.js';
export type * from './tables/approvals.js';
export type * from './tables/attachments.js';
export type * from './tables/controlled.js';
export type * from './tables/hazards.js';
export type * from './tables/identifiers.js';
export type * from './tables/inventory.js';
export type * from './tables/labels.js';
export type * from './tables/labs.js';
export type * from './tables/operators.js';
export type * from './tables/ordering.js';
export type * from './tables/receipts.js';
export type * from './tables/safety.js';
export type * from './tables/sso.js';
export type * from './tables/stocktake.js';
export type * from './tables/webhooks.js';

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable & UserPasswordColumns;
  org_memberships: OrgMembershipsTable & MembershipStatusColumns;
  labs: LabsTable & LabMigrationColumns & LabArchiveColumns;
  lab_memberships: LabMembershipsTable & LabMembershipRoleColumns;
  access_tokens: AccessTokensTable & TokenExpiryColumns;
  sessions: SessionsTable;
  sign_in_throttle: SignInThrottleTable;
  user_links: UserLinksTable;
  organization_sso: OrganizationSsoTable;
  sso_identities: SsoIdentitiesTable;
  sso_flows: SsoFlowsTable;
  sso_domains: SsoDomainsTable;
  operators: OperatorsTable;
  operator_tokens: OperatorTokensTable;
  operator_audit: OperatorAuditTable;
  types: TypesTable;
  locations: LocationsTable;
  inventory_items: InventoryItemsTable & InventorySearchColumns;
  inventory_item_search: InventoryItemSearchTable;
  inventory_document_settings: InventoryDocumentSettingsTable;
  inventory_lab_counts: InventoryLabCountsTable;
  inventory_page_marks: InventoryPageMarksTable;
  inventory_item_instances: InstancesTable;
  location_holdings: LocationHoldingsTable;
  location_holding_items: LocationHoldingItemsTable;
  inventory_item_changes: ItemChangesTable & ItemChangeSourceColumns & ItemChangeStocktakeColumns;
  order_requests: OrderRequestsTable & OrderDeliveryColumns;
  order_request_events: OrderRequestEventsTable;
  order_request_receipts: OrderReceiptsTable;
  label_codes: LabelCodesTable;
  instance_identifiers: InstanceIdentifiersTable;
  vendor_products: VendorProductsTable;
  sales_orders: SalesOrdersTable;
  sales_order_items: SalesOrderItemsTable;
  shipments: ShipmentsTable;
  spend_tracking_codes: SpendTrackingCodesTable;
  lab_spend_settings: LabSpendSettingsTable;
  webhooks: WebhooksTable;
  events: EventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  idempotency_keys: IdempotencyKeysTable;
  alerts: AlertsTable;
  alert_notices: AlertNoticesTable;
  notification_preferences: NotificationPreferencesTable;
  digest_preferences: DigestPreferencesTable;
  lab_approval_rules: LabApprovalRulesTable;
  approval_notices: ApprovalNoticesTable;
  attachments: AttachmentsTable & AttachmentSdsColumns;
  attachment_chunks: AttachmentChunksTable;
  stocktake_sessions: StocktakeSessionsTable;
  stocktake_counts: StocktakeCountsTable;
  controlled_items: ControlledItemsTable;
  controlled_ledger: ControlledLedgerTable;
  controlled_witnesses: ControlledWitnessesTable;
  hazard_sets: HazardSetsTable;
  hazard_set_codes: HazardSetCodesTable;
  lab_safety_settings: LabSafetySettingsTable;
  control_areas: ControlAreasTable;
  storage_attributes: StorageAttributesTable;
}
