import type { TSchema } from 'typebox';
import { InvitationDetails, InvitedUser, IssuedLinkBody } from '../accounts/link-schemas.js';
import {
  AuthSession,
  CreatedUserToken,
  OrganizationToken,
  OrganizationUser,
  SessionCheck,
  SignedOut,
  UserSummary,
  UserToken,
} from '../accounts/schemas.js';
import { OrganizationSso, SsoDomain, SsoLinkStarted, SsoLinkState } from '../accounts/sso-schemas.js';
import { NotificationPreferences } from '../alerts/schemas.js';
import { Attachment } from '../attachments/schemas.js';
import { SafetyDataSheet } from '../attachments/sds-schemas.js';
import { ProductUnit, VendorProduct } from '../catalogue/schemas.js';
import {
  ControlledItem,
  LabReconciliation as ControlledLabReconciliation,
  LedgerEntry as ControlledLedgerEntry,
  Reconciliation as ControlledReconciliation,
} from '../controlled/schemas.js';
import { ControlArea } from '../hazards/control-area-schemas.js';
import { HazardClassInfo, HazardStatementRule, ItemHazardSummary, ItemHazards, TypeHazards } from '../hazards/schemas.js';
import { LabSafetySettings } from '../hazards/settings-schemas.js';
import { Health } from '../health/schemas.js';
import { Amount, ItemAmount } from '../inventory/amounts-schemas.js';
import { InventoryImportError, InventoryImportResult } from '../inventory/csv/schemas.js';
import { VendorBarcode } from '../inventory/gs1-schemas.js';
import { HazardReport } from '../inventory/hazard-report/schemas.js';
import { BarcodeMatches, InstanceIdentifiers } from '../inventory/identifiers-schemas.js';
import { ControlAreaMeter, PlacementCheck, SegregationReport, StorageAttributes } from '../inventory/placement-schemas.js';
import { PutAwayInstance } from '../inventory/put-away-schemas.js';
import { Change, InstanceLocation, InventoryItem, InventoryItemInstance, ItemMinimumQuantity } from '../inventory/schemas.js';
import { LabMigration } from '../lab-migration/schemas.js';
import { LabelCode, LabelLayout } from '../labels/schemas.js';
import { LabApprovalSettings } from '../labs/approval-schemas.js';
import { Lab, LabMember, Organization, OrganizationLab } from '../labs/schemas.js';
import { Location } from '../locations/schemas.js';
import { SpendSettings, SpendTrackingCode } from '../order-requests/details-schemas.js';
import { OrderDelivery, OrderReceipt } from '../order-requests/receipts-schemas.js';
import { OrderRequest, OrderRequestEvent } from '../order-requests/schemas.js';
import { ErrorBody, Money } from '../shared/schemas.js';
import { FulfilmentLine, LineProduct, LineShipment, SalesOrder, SalesOrderItem, Shipment } from '../shop/schemas.js';
import { Stocktake, StocktakeLine, StocktakeWithLines } from '../stocktake/schemas.js';
import { InventoryType, TypeRef, TypeUsage } from '../types/schemas.js';
import { QueuedDelivery, ReplayResult, Webhook, WebhookDelivery, WebhookSettings } from '../webhooks/schemas.js';

// Every schema with a name ($id): the server registers them all (app.addSchema) before any route, so the
// serializer resolves the routes' $refs and the document lists each once under components.schemas, in this order.
// Only what a route refers to: the events' own shapes (OrderRequestWithHistory, InventoryItemAlert) are written out
// whole in the document's `webhooks` section (src/server/event-schemas.ts), and a component no operation uses is
// one Redocly's recommended rules warn about (test/lint/openapi.test.ts).

export const NAMED_SCHEMAS: readonly TSchema[] = [
  ErrorBody,
  Money,
  UserSummary,
  Organization,
  Lab,
  LabMigration,
  TypeRef,
  InventoryType,
  TypeUsage,
  InventoryItem,
  InventoryItemInstance,
  InstanceLocation,
  Change,
  Location,
  OrderRequest,
  OrderRequestEvent,
  SpendTrackingCode,
  SpendSettings,
  OrderReceipt,
  OrderDelivery,
  ProductUnit,
  VendorProduct,
  SalesOrder,
  SalesOrderItem,
  LineProduct,
  LineShipment,
  Shipment,
  FulfilmentLine,
  Webhook,
  WebhookDelivery,
  WebhookSettings,
  QueuedDelivery,
  ReplayResult,
  Health,
  AuthSession,
  SignedOut,
  SessionCheck,
  UserToken,
  CreatedUserToken,
  OrganizationToken,
  OrganizationUser,
  IssuedLinkBody,
  InvitedUser,
  InvitationDetails,
  OrganizationLab,
  LabApprovalSettings,
  LabMember,
  ItemMinimumQuantity,
  Amount,
  ItemAmount,
  HazardReport,
  PutAwayInstance,
  VendorBarcode,
  InstanceIdentifiers,
  BarcodeMatches,
  OrganizationSso,
  SsoDomain,
  SsoLinkState,
  SsoLinkStarted,
  NotificationPreferences,
  InventoryImportResult,
  InventoryImportError,
  LabelCode,
  LabelLayout,
  Attachment,
  Stocktake,
  StocktakeLine,
  StocktakeWithLines,
  ControlledItem,
  ControlledLedgerEntry,
  ControlledReconciliation,
  ControlledLabReconciliation,
  LabSafetySettings,
  ControlArea,
  ControlAreaMeter,
  PlacementCheck,
  SegregationReport,
  StorageAttributes,
  ItemHazards,
  TypeHazards,
  ItemHazardSummary,
  HazardStatementRule,
  HazardClassInfo,
  SafetyDataSheet,
];

const byId = new Map(NAMED_SCHEMAS.map((s) => [(s as { $id: string }).$id, s]));

/**
 * A plain JSON copy of `schema` with every $ref to a named schema replaced by that schema (without its $id): a
 * self-contained schema for the places that are read on their own, like the `webhooks` section, which receivers
 * compile without the rest of the document (test/helpers/events.ts does exactly that).
 */
export function inlineNamed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(inlineNamed);
  if (schema === null || typeof schema !== 'object') return schema;
  const { $ref, $id: _id, ...rest } = schema as Record<string, unknown>;
  if (typeof $ref === 'string') {
    const target = byId.get($ref);
    if (!target) throw new Error(`No named schema ${$ref}`);
    return { ...(inlineNamed(target) as object), ...(inlineNamed(rest) as object) };
  }
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, inlineNamed(v)]));
}
