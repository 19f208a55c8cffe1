import { Type, type Static, type TSchema } from 'typebox';
import { DECIMAL_PATTERN } from './decimal.js';

// The public resources exactly as the contract shows them. One declaration validates input, serializes output
// (fast-json-stringify writes only declared properties) and becomes the OpenAPI document.

export const Uuid = Type.String({ format: 'uuid' });
export const DateString = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
export const DateTime = Type.String({ format: 'date-time' });
export const DecimalString = Type.String({ pattern: DECIMAL_PATTERN, description: 'non-negative decimal string, e.g. "12.5"' });

const nullable = <T>(schema: Record<string, unknown> & { type: string }) =>
  Type.Unsafe<T | null>({ ...schema, type: [schema.type, 'null'] });
export const NString = nullable<string>({ type: 'string' });
export const NDate = nullable<string>({ type: 'string', format: 'date' });
export const NUuid = nullable<string>({ type: 'string', format: 'uuid' });
export const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const UserSummary = Type.Object(
  { id: Uuid, first_name: Type.String(), last_name: Type.String(), email: Type.String({ format: 'email' }) },
  { title: 'UserSummary', additionalProperties: false },
);
export type UserSummary = Static<typeof UserSummary>;

export const Organization = Type.Object({ id: Uuid, name: Type.String() }, { additionalProperties: false });

export const Lab = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    organization: Organization,
    uses_instances: Type.Boolean({ description: 'Temporary field: false = legacy lab; true (or absent) = migrated to instances.' }),
  },
  { title: 'Lab', additionalProperties: false },
);
export type Lab = Static<typeof Lab>;

export const TypeRef = Type.Object({ id: Uuid, name: Type.String() }, { additionalProperties: false });
export type TypeRef = Static<typeof TypeRef>;

export const InventoryType = Type.Object({ id: Uuid, name: Type.String(), lab: Lab }, { title: 'InventoryType', additionalProperties: false });
export type InventoryType = Static<typeof InventoryType>;

export const Money = Type.Object(
  {
    amount: Type.String({ description: 'integer string in the currency\'s minor units (USD "1250" = 12.50)' }),
    currency: Type.String({ description: 'ISO 4217 code' }),
  },
  { title: 'Money', additionalProperties: false },
);
export type Money = Static<typeof Money>;

export const InstanceLocation = Type.Object(
  { name: Type.String(), pathNames: Type.Array(Type.String(), { minItems: 1, maxItems: 7 }) },
  { additionalProperties: false },
);

export const InventoryItemInstance = Type.Object(
  { id: Uuid, quantity: Type.String(), lot_number: NString, expiration_date: NDate, location: orNull(InstanceLocation) },
  { title: 'InventoryItemInstance', additionalProperties: false },
);
export type InventoryItemInstance = Static<typeof InventoryItemInstance>;

const LegacyLocation = Type.Object({ name: Type.String() }, { additionalProperties: false });

export const InventoryItem = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    vendor: NString,
    catalog_number: NString,
    price: NString,
    unit_size: NString,
    quantity: Type.String({ description: 'In migrated labs, the exact sum of the active instances\' quantities.' }),
    url: NString,
    technical_details: NString,
    expiration_date: NDate,
    auto_reminder: NString,
    lot_number: NString,
    cas_number: NString,
    vendor_product_id: NUuid,
    lab: Lab,
    type: orNull(TypeRef),
    location: orNull(LegacyLocation),
    sublocation: orNull(LegacyLocation),
    added_by: UserSummary,
    updated_by: UserSummary,
    serial_number: NString,
    instances: Type.Array(InventoryItemInstance, { description: 'Active instances only; always [] in legacy labs.' }),
    app_url: Type.String({ format: 'uri' }),
  },
  { title: 'InventoryItem', additionalProperties: false },
);
export type InventoryItem = Static<typeof InventoryItem>;

export const ORDER_STATUSES = ['CREATED', 'CANCELLED', 'APPROVED', 'ORDERED', 'BACKORDERED', 'RECEIVED'] as const;
export const OrderStatus = Type.Union([
  Type.Literal('CREATED'), Type.Literal('CANCELLED'), Type.Literal('APPROVED'),
  Type.Literal('ORDERED'), Type.Literal('BACKORDERED'), Type.Literal('RECEIVED'),
]);

export const OrderRequestEvent = Type.Object(
  { type: Type.String(), comment: NString, created_at: DateTime, created_by: UserSummary },
  { title: 'OrderRequestEvent', additionalProperties: false },
);
export type OrderRequestEvent = Static<typeof OrderRequestEvent>;

const orderRequestFields = {
  id: Uuid,
  status: OrderStatus,
  vendor_name: Type.String(),
  catalog_number: Type.String(),
  quantity: Type.String(),
  unit_size: NString,
  unit_price: Type.String({ description: 'major-unit decimal string' }),
  total_price: Money,
  requested_at: DateTime,
  updated_at: DateTime,
  requested_by: UserSummary,
  created_by: UserSummary,
  notes: NString,
  item_name: Type.String(),
  invoice_number: NString,
  requisition_number: NString,
  confirmation_number: NString,
  tracking_number: NString,
  purchase_order_number: NString,
  shipping_and_handling: NString,
  details: NString,
  lab: Lab,
  type: TypeRef,
  spend_tracking_code: orNull(Type.Object({ name: Type.String() }, { additionalProperties: false })),
  backordered_expected_at: NDate,
  is_urgent: Type.Boolean(),
  app_url: Type.String({ format: 'uri' }),
};
export const OrderRequest = Type.Object(orderRequestFields, { title: 'OrderRequest', additionalProperties: false });
export type OrderRequest = Static<typeof OrderRequest>;

/** The order request as the ordered event carries it: with its history and who changed it last. */
export const OrderRequestWithHistory = Type.Object(
  { ...orderRequestFields, events: Type.Array(OrderRequestEvent), updated_by: UserSummary },
  { title: 'OrderRequestWithHistory', additionalProperties: false },
);
export type OrderRequestWithHistory = Static<typeof OrderRequestWithHistory>;

export const Webhook = Type.Object(
  {
    id: Uuid,
    name: NString,
    url: Type.String(),
    event_types: Type.Array(Type.String(), { description: 'Full event type strings; [] delivers every event.' }),
    is_enabled: Type.Boolean(),
    is_verified: Type.Boolean(),
    is_signed: Type.Boolean(),
    signing_key: Type.String(),
  },
  { title: 'Webhook', additionalProperties: false },
);
export type Webhook = Static<typeof Webhook>;

export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    code: Type.String(),
    request_id: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }, { additionalProperties: false }))),
    allowed: Type.Optional(Type.Array(Type.String())),
  },
  { title: 'Error', additionalProperties: false },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed JSON',
  401: 'Missing, unknown or revoked access token',
  403: 'The token\'s role does not allow this',
  404: 'Not found, or not visible to this token',
  409: 'Conflicts with the resource\'s state',
  412: 'If-Match does not match the current ETag',
  413: 'Body too large',
  415: 'Body is not JSON',
  422: 'Validation failed',
  429: 'Rate limited; see Retry-After',
};

/** Response map for a route: its success schema plus the documented error bodies. */
export function responses(success: Record<number, TSchema>, errors: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = { ...success };
  for (const status of [...errors, 429]) out[status] = { ...ErrorBody, description: ERROR_DESCRIPTIONS[status] } as TSchema;
  return out;
}
