import { type Static, Type } from 'typebox';
import { DateString, Money, orNull, ref, Uuid } from '../shared/schemas.js';
import { PriceBody, SpendCodeRef } from './schemas.js';

// Order details, spend tracking codes and budgets (docs/ordering.md, docs/product.md §13): the bodies and the code's
// resource. The order request itself keeps exactly the contract's shape (src/order-requests/schemas.ts).

const detail = (maxLength: number, description: string) => Type.Optional(orNull(Type.String({ maxLength, description })));

/** PATCH /order-requests/{id}: every field optional; null or "" clears one; an empty body changes nothing. */
export const OrderDetailsPatch = Type.Object(
  {
    notes: detail(10_000, 'Free text.'),
    unit_size: detail(200, 'e.g. "500 mL"; the shop fills it from the product\'s unit at checkout.'),
    invoice_number: detail(200, ''),
    requisition_number: detail(200, ''),
    confirmation_number: detail(200, ''),
    tracking_number: detail(500, 'The shop fills it from its shipments.'),
    purchase_order_number: detail(200, "The shop fills it at checkout with the sales order's."),
    shipping_and_handling: detail(200, 'Free text, e.g. "12.50 USD".'),
    details: detail(10_000, 'Free text.'),
    expected_delivery_date: Type.Optional(
      Type.Union([DateString, Type.Null()], {
        description: 'The day the vendor promised (YYYY-MM-DD; null clears it). Read with GET /order-requests/{id}/delivery.',
      }),
    ),
    is_urgent: Type.Optional(Type.Boolean()),
    spend_tracking_code: Type.Optional(orNull(SpendCodeRef)),
  },
  { additionalProperties: false },
);
export type OrderDetailsPatch = Static<typeof OrderDetailsPatch>;

export const SpendPeriod = Type.Union([Type.Literal('month'), Type.Literal('quarter'), Type.Literal('year')]);

/** A lab's spend tracking code with its spend in one period (the current one unless `on` names another day). */
export const SpendTrackingCode = Type.Object(
  {
    id: Uuid,
    lab_id: Uuid,
    name: Type.String(),
    period: SpendPeriod,
    budget: Type.Union([ref(Money), Type.Null()], { description: 'Per period; null: no budget.' }),
    period_start: DateString,
    period_end: Type.String({ format: 'date', description: 'The last day of the period (inclusive).' }),
    spent: Type.Array(ref(Money), {
      description: 'The total price of its ORDERED, BACKORDERED and RECEIVED requests ordered in the period, one entry per currency.',
    }),
    remaining: Type.Union([ref(Money), Type.Null()], { description: 'Budget minus spent, never below zero; null without a budget.' }),
    over_budget: Type.Boolean(),
  },
  { $id: 'SpendTrackingCode', title: 'SpendTrackingCode', additionalProperties: false },
);
export type SpendTrackingCode = Static<typeof SpendTrackingCode>;

export const SpendTrackingCodeCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    period: Type.Optional(SpendPeriod),
    budget: Type.Optional(PriceBody),
  },
  { additionalProperties: false },
);
export type SpendTrackingCodeCreate = Static<typeof SpendTrackingCodeCreate>;

export const SpendTrackingCodeUpdate = Type.Object(
  {
    period: Type.Optional(SpendPeriod),
    budget: Type.Optional(Type.Union([PriceBody, Type.Null()], { description: 'null removes the budget.' })),
  },
  { additionalProperties: false },
);
export type SpendTrackingCodeUpdate = Static<typeof SpendTrackingCodeUpdate>;

export const SpendSettings = Type.Object(
  {
    over_budget: Type.Union([Type.Literal('warn'), Type.Literal('block')], {
      description: 'warn: the request goes ahead and its history says it is over budget; block: 409 over_budget.',
    }),
  },
  { $id: 'SpendSettings', title: 'SpendSettings', additionalProperties: false },
);
export type SpendSettings = Static<typeof SpendSettings>;
