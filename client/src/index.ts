// @labstock/client: a typed client for the Labstock API. The types come from the service's OpenAPI document
// (src/generated/schema.ts, regenerated with `npm run client:generate`); calls go through openapi-fetch.

import type { components } from './generated/schema.js';

export {
  createLabstockClient,
  type LabstockClient,
  type LabstockClientOptions,
  type LabstockMethod,
  type LabstockResult,
  type ListItem,
  type ListParams,
  type ListPath,
  type PaginateInit,
} from './client.js';
export {
  AuthenticationError,
  BadRequestError,
  type CallResult,
  ConflictError,
  type ErrorBody,
  errorFor,
  isLabstockError,
  LabstockConnectionError,
  LabstockError,
  LabstockTimeoutError,
  NotFoundError,
  PermissionDeniedError,
  PreconditionFailedError,
  RateLimitedError,
  ServerError,
  ServiceUnavailableError,
  UnprocessableEntityError,
  unwrap,
  unwrapWithMeta,
} from './errors.js';
export type { components, operations, paths, webhooks } from './generated/schema.js';
export { parseLinkHeader, parseRetryAfter, type ResponseMeta, responseMeta } from './meta.js';
export { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, type RequestOptions, type RetryInfo, type TransportOptions } from './transport.js';
export {
  type EventKind,
  eventKind,
  type LabstockEvent,
  verifyWebhook,
  type WebhookEvent,
  type WebhookHeaders,
  type WebhookPingEvent,
  WebhookVerificationError,
} from './webhooks.js';

type Schemas = components['schemas'];
export type InventoryItem = Schemas['InventoryItem'];
export type InventoryItemInstance = Schemas['InventoryItemInstance'];
export type InventoryType = Schemas['InventoryType'];
export type Lab = Schemas['Lab'];
export type Location = Schemas['Location'];
export type Money = Schemas['Money'];
export type OrderRequest = Schemas['OrderRequest'];
export type SalesOrder = Schemas['SalesOrder'];
export type SalesOrderItem = Schemas['SalesOrderItem'];
export type Shipment = Schemas['Shipment'];
export type UserSummary = Schemas['UserSummary'];
export type VendorProduct = Schemas['VendorProduct'];
export type Webhook = Schemas['Webhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
