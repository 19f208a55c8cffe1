import { type Static, type TSchema, Type } from 'typebox';
import { UserSummary } from '../accounts/schemas.js';
import { Lab } from '../labs/schemas.js';
import { DECIMAL_PATTERN } from '../shared/decimal.js';
import { PageQuery } from '../shared/pagination.js';
import { DateString, DateTime, DecimalString, NDate, NString, NUuid, orNull, ref, Uuid, WebPage } from '../shared/schemas.js';
import { TypeRef } from '../types/schemas.js';
import { SORTS } from './search/rules.js';

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

/** The parent fields the contract deprecates (empty in migrated labs, read from `instances` there): documented so. */
const deprecated = <T>(schema: T, description: string) =>
  Type.Unsafe<Static<T & TSchema>>({ ...(schema as object), deprecated: true, description });

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
    expiration_date: deprecated(NDate, 'Deprecated: always null in migrated labs; read the instances.'),
    auto_reminder: NString,
    lot_number: deprecated(NString, 'Deprecated: always null in migrated labs; read the instances.'),
    cas_number: NString,
    vendor_product_id: NUuid,
    lab: ref(Lab),
    type: orNull(ref(TypeRef)),
    location: deprecated(orNull(LegacyLocation), 'Deprecated legacy first location level: null in migrated labs.'),
    sublocation: deprecated(orNull(LegacyLocation), 'Deprecated legacy second location level: null in migrated labs.'),
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
  url: Type.Optional(WebPage),
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

export const ArchiveBody = Type.Object(
  { reason: Type.Optional(orNull(Type.String({ maxLength: 2000 }))) },
  { additionalProperties: false, description: 'Why it leaves (used up, expired, broken): kept as the note of its history line.' },
);
export type ArchiveBody = Static<typeof ArchiveBody>;

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
    lot_number: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      description: "The lot the entry concerns: its instance's lot (archived ones too), a legacy item's lot, else null.",
    }),
    location: Type.Union([ref(InstanceLocation), Type.Null()], {
      description: "Where that is: its instance's location now, a legacy item's location and sublocation, else null.",
    }),
    old_location: Type.Union([ref(InstanceLocation), Type.Null()], { description: 'For instance.location_id entries: moved from.' }),
    new_location: Type.Union([ref(InstanceLocation), Type.Null()], { description: 'For instance.location_id entries: moved to.' }),
    order_request_id: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The order request whose goods this entry received.',
    }),
    stocktake_id: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The stocktake (GET /stocktakes/{id}) whose apply made this change.',
    }),
  },
  { $id: 'InventoryItemChange', additionalProperties: false },
);
export type Change = Static<typeof Change>;

// Search, filters and minimum quantities (docs/product.md §12, src/inventory/search/rules.ts). Without any of the new
// parameters, GET /inventory-items is the contract's list: lab_id and page (and per_page) only.

export const ItemListQuery = Type.Object({
  lab_id: Type.Optional(Type.String({ description: 'Only items of this lab. Without it, every lab the token may see.' })),
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'Words found in the name, vendor, catalog number, CAS number, serial number or lot numbers (the item\'s or its active instances\'): a word of 3 characters or more anywhere, inside words too ("ethyl" finds "Dimethyl sulfoxide"), a shorter one at the start of a word. Every word must match; dashes and punctuation are ignored ("7732-18" finds "7732-18-5"); case and accents do not matter. Without lab_id, every lab the token may see is searched.',
    }),
  ),
  type_id: Type.Optional(Type.String({ description: 'Only items of this type.' })),
  location_id: Type.Optional(
    Type.String({ description: 'Only items with an active instance at this location or anywhere below it (labs that use instances).' }),
  ),
  expiring_before: Type.Optional({
    ...DateString,
    description: 'Only items with an active instance, or a legacy expiration_date, that expires before this date (YYYY-MM-DD).',
  }),
  below_minimum: Type.Optional(
    Type.Boolean({ description: 'true: only items whose quantity is below their minimum quantity. false: no filter.' }),
  ),
  sort: Type.Optional(
    Type.Union(
      SORTS.map((s) => Type.Literal(s)),
      {
        description:
          'name, expiration_date (the soonest expiry; items without one come last) or updated_at; a leading - for descending. Ties go by creation time, then id, in the same direction. Default: creation time, then id.',
      },
    ),
  ),
  ...PageQuery,
});
export type ItemListQuery = Static<typeof ItemListQuery>;

export const MinimumQuantityBody = Type.Object(
  { minimum_quantity: Type.Unsafe<string | null>({ type: ['string', 'null'], pattern: DECIMAL_PATTERN, description: 'null removes it' }) },
  { additionalProperties: false },
);
export type MinimumQuantityBody = Static<typeof MinimumQuantityBody>;

/** An item's minimum quantity, beside the item (docs/product.md §1: additions live on their own endpoints). */
export const ItemMinimumQuantity = Type.Object(
  {
    item_id: Uuid,
    minimum_quantity: NString,
    quantity: Type.String({ description: "The item's quantity (in a migrated lab, the sum of its active instances)." }),
    below_minimum: Type.Boolean(),
  },
  { $id: 'ItemMinimumQuantity', title: 'ItemMinimumQuantity', additionalProperties: false },
);
export type ItemMinimumQuantity = Static<typeof ItemMinimumQuantity>;
