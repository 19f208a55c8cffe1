import { type Static, Type } from 'typebox';
import { UserSummary } from '../accounts/schemas.js';
import { Lab } from '../labs/schemas.js';
import { DateString, DateTime, Money, NDate, NString, orNull, ref, Uuid } from '../shared/schemas.js';
import { TypeRef } from '../types/schemas.js';

// The order request exactly as the contract shows it: one declaration validates, serializes and documents (src/shared/schemas.ts).

export const ORDER_STATUSES = ['CREATED', 'CANCELLED', 'APPROVED', 'ORDERED', 'BACKORDERED', 'RECEIVED'] as const;
export const OrderStatus = Type.Union([
  Type.Literal('CREATED'),
  Type.Literal('CANCELLED'),
  Type.Literal('APPROVED'),
  Type.Literal('ORDERED'),
  Type.Literal('BACKORDERED'),
  Type.Literal('RECEIVED'),
]);

export const OrderRequestEvent = Type.Object(
  { type: Type.String(), comment: NString, created_at: DateTime, created_by: ref(UserSummary) },
  { $id: 'OrderRequestEvent', title: 'OrderRequestEvent', additionalProperties: false },
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
  total_price: ref(Money),
  requested_at: DateTime,
  updated_at: DateTime,
  requested_by: ref(UserSummary),
  created_by: ref(UserSummary),
  notes: NString,
  item_name: Type.String(),
  invoice_number: NString,
  requisition_number: NString,
  confirmation_number: NString,
  tracking_number: NString,
  purchase_order_number: NString,
  shipping_and_handling: NString,
  details: NString,
  lab: ref(Lab),
  type: ref(TypeRef),
  spend_tracking_code: orNull(Type.Object({ name: Type.String() }, { additionalProperties: false })),
  backordered_expected_at: NDate,
  is_urgent: Type.Boolean(),
  app_url: Type.String({ format: 'uri' }),
};
export const OrderRequest = Type.Object(orderRequestFields, { $id: 'OrderRequest', title: 'OrderRequest', additionalProperties: false });
export type OrderRequest = Static<typeof OrderRequest>;

/**
 * How many history entries an event's `events` carries: the newest ones (docs/webhooks.md). The whole history in
 * every event made each event grow with the request's edits and the events table with their square; the whole
 * history stays at GET /order-requests/{id}/history.
 */
export const EVENT_HISTORY_LIMIT = 20;

/** The order request as the ordered and updated events carry it: with its newest history and who changed it last. */
export const OrderRequestWithHistory = Type.Object(
  {
    ...orderRequestFields,
    events: Type.Array(ref(OrderRequestEvent), {
      maxItems: EVENT_HISTORY_LIMIT,
      description: `The newest ${EVENT_HISTORY_LIMIT} entries of the request's history (all of them when it has fewer), oldest first; GET /order-requests/{id}/history has every entry.`,
    }),
    updated_by: ref(UserSummary),
  },
  { $id: 'OrderRequestWithHistory', title: 'OrderRequestWithHistory', additionalProperties: false },
);
export type OrderRequestWithHistory = Static<typeof OrderRequestWithHistory>;

/** A price as request bodies give it: the amount is checked against the currency by src/shared/money.ts. */
export const PriceBody = Type.Object(
  {
    amount: Type.String({ maxLength: 40, description: 'minor units ("1250") or major units with a point ("12.50")' }),
    currency: Type.String({ maxLength: 3, description: 'ISO 4217 code' }),
  },
  { additionalProperties: false },
);

/** `{name}` as the contract shows `spend_tracking_code`: the name of one of the lab's codes (docs/ordering.md). */
export const SpendCodeRef = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });

/** POST /order-requests' body; createOrder takes its Static type. */
export const OrderRequestCreate = Type.Object(
  {
    lab_id: Uuid,
    type_id: Uuid,
    name: Type.String({ minLength: 1, maxLength: 500 }),
    vendor_product_id: Type.Optional(Uuid),
    vendor_name: Type.String({ minLength: 1, maxLength: 500 }),
    catalog_number: Type.String({ minLength: 1, maxLength: 200 }),
    price: PriceBody,
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
    required_before: Type.Optional(DateString),
    notes: Type.Optional(Type.String({ maxLength: 10_000 })),
    spend_tracking_code: Type.Optional(orNull(SpendCodeRef)),
  },
  { additionalProperties: false },
);
export type OrderRequestCreate = Static<typeof OrderRequestCreate>;

/**
 * GET /order-requests' parameters beyond the contract's (lab_id, status, page): search, "mine" and newest first for the
 * application's list (docs/api.md). Without them the list is exactly the contract's.
 */
export const OrderListAdditions = {
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        "Text found anywhere in the item's name, the vendor or the catalog number (case-insensitive for unaccented letters). Blank filters nothing.",
    }),
  ),
  requested_by: Type.Optional(
    Type.String({
      maxLength: 100,
      description: "`me` (the caller) or a user's id: only the requests that person made. An id nobody visible has gives [].",
    }),
  ),
  sort: Type.Optional(
    Type.Union([Type.Literal('requested_at'), Type.Literal('-requested_at')], {
      description: 'requested_at (oldest first, the default) or -requested_at (newest first); ties go by id in the same direction.',
    }),
  ),
};

// PUT /order-requests/{id}'s body (routes.ts).

export const UpdateOrderStatusBody = Type.Object({ status: Type.Optional(OrderStatus) }, { additionalProperties: false });
export type UpdateOrderStatusBody = Static<typeof UpdateOrderStatusBody>;
