import { type Static, Type } from 'typebox';
import { UserSummary } from '../accounts/schemas.js';
import { ProductUnit } from '../catalogue/schemas.js';
import { Lab } from '../labs/schemas.js';
import { OrderRequest } from '../order-requests/schemas.js';
import { DateString, DateTime, Money, NDate, NString, orNull, ref, Uuid } from '../shared/schemas.js';

// The shop's resources. The sales order item is the contract's "Shop order item" exactly (it travels in
// sales-order-item.* events); the sales order and shipment shapes are ours (the contract does not show them) and
// are recorded in docs/api.md. The product is src/catalogue/schemas.ts.

export const LINE_STATUSES = ['PLACED', 'BACKORDERED', 'INDEFINITELY_BACKORDERED', 'SHIPPED', 'DELIVERED', 'CANCELLED'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];
export const LineStatus = Type.Union(LINE_STATUSES.map((s) => Type.Literal(s)));

export const PAYMENT_METHODS = ['CREDIT_CARD', 'PURCHASE_ORDER'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PaymentMethod = Type.Union(PAYMENT_METHODS.map((s) => Type.Literal(s)));

/** The product as a sales order item embeds it (contract fields only). */
export const LineProduct = Type.Object(
  { id: Uuid, item_name: Type.String(), catalog_number: Type.String(), unit: ref(ProductUnit) },
  { $id: 'SalesOrderItemProduct', additionalProperties: false },
);

export const LineShipment = Type.Object(
  {
    id: Uuid,
    carrier: Type.String(),
    tracking: Type.String(),
    quantity: Type.Integer({ minimum: 1 }),
    shipped_at: DateTime,
    delivered_at: orNull(DateTime),
  },
  { $id: 'SalesOrderItemShipment', additionalProperties: false },
);

export const SalesOrderItem = Type.Object(
  {
    id: Uuid,
    app_url: Type.String({ format: 'uri' }),
    status: LineStatus,
    estimated_shipment_date: NDate,
    estimated_delivery_date: NDate,
    sell_price: ref(Money),
    quantity: Type.Integer({ minimum: 1 }),
    product: ref(LineProduct),
    shipments: Type.Array(ref(LineShipment)),
    request: ref(OrderRequest),
  },
  { $id: 'SalesOrderItem', title: 'SalesOrderItem', additionalProperties: false },
);
export type SalesOrderItem = Static<typeof SalesOrderItem>;

export const SalesOrder = Type.Object(
  {
    id: Uuid,
    key: Type.String({ description: 'human-readable order number, e.g. "SO-2026-K7Q3XM"' }),
    app_url: Type.String({ format: 'uri' }),
    payment_method: PaymentMethod,
    purchase_order_number: NString,
    is_test: Type.Boolean(),
    subtotal: ref(Money),
    shipping: ref(Money),
    handling: ref(Money),
    tax: ref(Money),
    total: ref(Money),
    lab: ref(Lab),
    placed_by: ref(UserSummary),
    placed_at: DateTime,
    items: Type.Array(ref(SalesOrderItem)),
  },
  { $id: 'SalesOrder', title: 'SalesOrder', additionalProperties: false },
);
export type SalesOrder = Static<typeof SalesOrder>;

/** A shipment as shipment.* events carry it: the contract's fields plus where it belongs. */
export const Shipment = Type.Object(
  {
    id: Uuid,
    carrier: Type.String(),
    tracking: Type.String(),
    quantity: Type.Integer({ minimum: 1 }),
    shipped_at: DateTime,
    delivered_at: orNull(DateTime),
    sales_order_item_id: Uuid,
    sales_order: Type.Object({ id: Uuid, key: Type.String() }, { additionalProperties: false }),
    lab: ref(Lab),
  },
  { $id: 'Shipment', title: 'Shipment', additionalProperties: false },
);
export type Shipment = Static<typeof Shipment>;

/**
 * A line as operators see it (docs/decisions/0004-operators.md): what fulfilment needs and nothing more. No
 * requester names or e-mails, notes, prices, purchase order numbers or request history of the tenant.
 */
export const FulfilmentLine = Type.Object(
  {
    id: Uuid,
    status: LineStatus,
    quantity: Type.Integer({ minimum: 1 }),
    shipped: Type.Integer({ minimum: 0, description: 'units in shipments so far' }),
    estimated_shipment_date: NDate,
    estimated_delivery_date: NDate,
    backordered_expected_at: NDate,
    cancel_reason: NString,
    product: Type.Object(
      { id: Uuid, item_name: Type.String(), catalog_number: Type.String(), vendor_name: Type.String(), unit: ref(ProductUnit) },
      { additionalProperties: false },
    ),
    shipments: Type.Array(ref(LineShipment)),
    sales_order: Type.Object(
      { id: Uuid, key: Type.String(), is_test: Type.Boolean(), placed_at: DateTime },
      { additionalProperties: false },
    ),
    ship_to: Type.Object(
      {
        organization: Type.Object({ id: Uuid, name: Type.String() }, { additionalProperties: false }),
        lab: Type.Object({ id: Uuid, name: Type.String() }, { additionalProperties: false }),
      },
      { additionalProperties: false, description: 'where the goods go' },
    ),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'FulfilmentLine', title: 'FulfilmentLine', additionalProperties: false },
);
export type FulfilmentLine = Static<typeof FulfilmentLine>;

// The request bodies: the routes validate with them and the services take their Static types (routes.ts, service.ts, fulfilment.ts).

export const CheckoutBody = Type.Object(
  {
    lab_id: Uuid,
    order_request_ids: Type.Array(Uuid, { minItems: 1, maxItems: 100 }),
    payment_method: Type.Unsafe<PaymentMethod>(PaymentMethod),
    purchase_order_number: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Required with PURCHASE_ORDER.' })),
    is_test: Type.Optional(Type.Boolean({ description: 'A test order: fulfilled like any other, marked so nobody bills it.' })),
  },
  { additionalProperties: false },
);
export type CheckoutBody = Static<typeof CheckoutBody>;

export const ShipBody = Type.Object(
  {
    carrier: Type.String({ minLength: 1, maxLength: 100 }),
    tracking: Type.String({ minLength: 1, maxLength: 200 }),
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
    shipped_at: Type.Optional(DateTime),
  },
  { additionalProperties: false },
);
export type ShipBody = Static<typeof ShipBody>;

export const DeliverBody = Type.Object({ delivered_at: Type.Optional(DateTime) }, { additionalProperties: false });
export type DeliverBody = Static<typeof DeliverBody>;

export const BackorderBody = Type.Object(
  { expected_at: Type.Optional(Type.Union([DateString, Type.Null()])) },
  { additionalProperties: false },
);
export type BackorderBody = Static<typeof BackorderBody>;

export const CancelLineBody = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 1000 })) }, { additionalProperties: false });
export type CancelLineBody = Static<typeof CancelLineBody>;
