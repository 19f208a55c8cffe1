import { type Static, Type } from 'typebox';
import { UserSummary } from '../accounts/schemas.js';
import { ReceivedIdentifiers } from '../inventory/identifiers-schemas.js';
import { InstanceLocation } from '../inventory/schemas.js';
import { DateString, DateTime, NDate, NString, orNull, ref, Uuid } from '../shared/schemas.js';

// Ordering tasks (docs/ordering.md "Ordering, receiving in parts"): the bodies of ordering, rejecting and receiving,
// and what a request's delivery looks like. The order request itself keeps the contract's shape.

/** POST /order-requests/{id}/receive. */
export const ReceiveBody = Type.Object(
  {
    quantity: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'How many arrived; all that is still to come without it.' }),
    ),
    lot_number: Type.Optional(Type.String({ maxLength: 200 })),
    expiration_date: Type.Optional(DateString),
    location_id: Type.Optional(Uuid),
    identifiers: Type.Optional(ReceivedIdentifiers),
  },
  { additionalProperties: false },
);
export type ReceiveBody = Static<typeof ReceiveBody>;

/** POST /order-requests/{id}/order: the details a person has when they place the order, all optional. */
export const MarkOrderedBody = Type.Object(
  {
    purchase_order_number: Type.Optional(Type.String({ maxLength: 200 })),
    confirmation_number: Type.Optional(Type.String({ maxLength: 200 })),
    expected_delivery_date: Type.Optional(DateString),
  },
  { additionalProperties: false },
);
export type MarkOrderedBody = Static<typeof MarkOrderedBody>;

/** POST /order-requests/{id}/reject. */
export const RejectBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 2000 }) }, { additionalProperties: false });
export type RejectBody = Static<typeof RejectBody>;

export const OrderReceipt = Type.Object(
  {
    id: Uuid,
    quantity: Type.String(),
    item_id: Uuid,
    lot_number: NString,
    expiration_date: NDate,
    location: orNull(ref(InstanceLocation)),
    received_at: DateTime,
    received_by: ref(UserSummary),
  },
  { $id: 'OrderReceipt', title: 'OrderReceipt', additionalProperties: false },
);

/** GET /order-requests/{id}/delivery. */
export const OrderDelivery = Type.Object(
  {
    order_request_id: Uuid,
    expected_delivery_date: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      format: 'date',
      description: 'The day the vendor promised (set when marking it ordered, or with PATCH).',
    }),
    quantity: Type.String({ description: "The request's quantity." }),
    received_quantity: Type.String(),
    remaining_quantity: Type.String(),
    item_id: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      format: 'uuid',
      description: "The inventory item the goods went into (the latest receipt's); null before any arrived.",
    }),
    receipts: Type.Array(ref(OrderReceipt), { description: 'Oldest first.' }),
  },
  { $id: 'OrderDelivery', title: 'OrderDelivery', additionalProperties: false },
);
export type OrderDelivery = Static<typeof OrderDelivery>;
