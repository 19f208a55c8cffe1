import { type Static, Type } from 'typebox';
import { UserSummary } from '../accounts/schemas.js';
import { Lab } from '../labs/schemas.js';
import { DECIMAL_PATTERN } from '../shared/decimal.js';
import { DateTime, DecimalString, NDate, NString, NUuid, orNull, ref, Uuid } from '../shared/schemas.js';
import { TypeRef } from '../types/schemas.js';

// The inventory item exactly as the contract shows it: one declaration validates, serializes and documents (src/shared/schemas.ts).

export const InstanceLocation = Type.Object(
  { name: Type.String(), pathNames: Type.Array(Type.String(), { minItems: 1, maxItems: 7 }) },
  { $id: 'InstanceLocation', additionalProperties: false },
);

export const InventoryItemInstance = Type.Object(
  { id: Uuid, quantity: Type.String(), lot_number: NString, expiration_date: NDate, location: orNull(ref(InstanceLocation)) },
  { $id: 'InventoryItemInstance', title: 'InventoryItemInstance', additionalProperties: false },
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
    quantity: Type.String({ description: "In migrated labs, the exact sum of the active instances' quantities." }),
    url: NString,
    technical_details: NString,
    expiration_date: NDate,
    auto_reminder: NString,
    lot_number: NString,
    cas_number: NString,
    vendor_product_id: NUuid,
    lab: ref(Lab),
    type: orNull(ref(TypeRef)),
    location: orNull(LegacyLocation),
    sublocation: orNull(LegacyLocation),
    added_by: ref(UserSummary),
    updated_by: ref(UserSummary),
    serial_number: NString,
    instances: Type.Array(ref(InventoryItemInstance), { description: 'Active instances only; always [] in legacy labs.' }),
    app_url: Type.String({ format: 'uri' }),
  },
  { $id: 'InventoryItem', title: 'InventoryItem', additionalProperties: false },
);
export type InventoryItem = Static<typeof InventoryItem>;

// The request bodies: the routes validate with them and the operations take their Static types, so a field is
// declared once (src/inventory/routes.ts, items.ts, instances.ts, quantities.ts).

/** Signed, for relative adjustments (src/shared/decimal.ts has the unsigned DECIMAL_PATTERN). */
export const SIGNED_DECIMAL_PATTERN = '^-?\\d{1,20}(\\.\\d{1,10})?$';

const NDecimal = Type.Unsafe<string | null>({ type: ['string', 'null'], pattern: DECIMAL_PATTERN });
const Place = orNull(Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }));
const itemFields = {
  vendor: Type.Optional(NString),
  catalog_number: Type.Optional(NString),
  price: Type.Optional(NDecimal),
  unit_size: Type.Optional(NString),
  url: Type.Optional(NString),
  technical_details: Type.Optional(NString),
  auto_reminder: Type.Optional(NString),
  cas_number: Type.Optional(NString),
  serial_number: Type.Optional(NString),
  vendor_product_id: Type.Optional(NUuid),
  type_id: Type.Optional(NUuid),
  quantity: Type.Optional(DecimalString),
  lot_number: Type.Optional(NString),
  expiration_date: Type.Optional(NDate),
  location: Type.Optional(Place),
  sublocation: Type.Optional(Place),
};

export const InstanceCreateBody = Type.Object(
  {
    quantity: DecimalString,
    lot_number: Type.Optional(NString),
    expiration_date: Type.Optional(NDate),
    location_id: Type.Optional(NUuid),
  },
  { additionalProperties: false },
);
export type InstanceCreate = Static<typeof InstanceCreateBody>;

export const InstanceEditBody = Type.Object(
  {
    quantity: Type.Optional(DecimalString),
    lot_number: Type.Optional(NString),
    expiration_date: Type.Optional(NDate),
    location_id: Type.Optional(NUuid),
  },
  { additionalProperties: false },
);
export type InstanceEdit = Static<typeof InstanceEditBody>;

export const ItemCreateBody = Type.Object(
  {
    lab_id: Uuid,
    name: Type.String({ minLength: 1, maxLength: 500 }),
    ...itemFields,
    instances: Type.Optional(Type.Array(InstanceCreateBody, { maxItems: 100 })),
  },
  { additionalProperties: false },
);
export type ItemCreate = Static<typeof ItemCreateBody>;

export const ItemEditBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })), ...itemFields },
  { additionalProperties: false },
);
export type ItemEdit = Static<typeof ItemEditBody>;

export const ItemQuantityBody = Type.Object({ quantity: Type.Optional(DecimalString) }, { additionalProperties: false });
export type ItemQuantity = Static<typeof ItemQuantityBody>;

export const InstanceQuantityBody = Type.Object({ quantity: DecimalString }, { additionalProperties: false });
export type InstanceQuantity = Static<typeof InstanceQuantityBody>;

export const AdjustmentBody = Type.Object(
  {
    delta: Type.String({ pattern: SIGNED_DECIMAL_PATTERN, description: 'e.g. "-0.5" or "2"' }),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
    instance_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type Adjustment = Static<typeof AdjustmentBody>;

/** One entry of GET /inventory-items/{id}/history. */
export const Change = Type.Object(
  {
    id: Uuid,
    field: Type.String(),
    old_value: NString,
    new_value: NString,
    note: NString,
    instance_id: NUuid,
    changed_at: DateTime,
    changed_by: orNull(ref(UserSummary)),
  },
  { $id: 'InventoryItemChange', additionalProperties: false },
);
export type Change = Static<typeof Change>;
