import { type Static, type TOptional, type TSchema, Type } from 'typebox';
import { UserSummary } from '../accounts/schemas.js';
import { Lab } from '../labs/schemas.js';
import type { Camel } from '../shared/camel.js';
import type { InventoryItemsTable } from '../shared/db/schema.js';
import { DECIMAL_PATTERN } from '../shared/decimal.js';
import { DateTime, DecimalString, NDate, NString, NUuid, orNull, ref, Uuid, WebPage } from '../shared/schemas.js';
import { TypeRef } from '../types/schemas.js';
import { ReceivedIdentifiers } from './identifiers-schemas.js';

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

/** How a CSV cell of the field is read and checked (src/inventory/csv/rules.ts checkRow). */
export type CsvCheck = 'name' | 'text' | 'decimal' | 'date' | 'uuid' | 'web page' | 'type name' | 'location path';

const csv = <H extends string, C extends CsvCheck>(header: H, check: C, ...aliases: string[]) => ({ header, check, aliases });

/** One of the item's own fields: the ITEM_FIELDS table below says everything the code needs to know of it. */
export interface ItemFieldSpec {
  /** What the create and edit bodies take (optional there, but name on create); its Static is the input type. */
  body: TSchema;
  /** The inventory_items column it is kept in; its camelCase spelling is the key of NewItem (and of a CSV row). */
  column: keyof InventoryItemsTable;
  /** Kept on the item in a lab that does not use instances only (there each instance has its own): empty otherwise. */
  legacyOnly?: true;
  /** Its CSV column, the other spellings a header may use, how a cell is checked; none: in no column of its own. */
  csv?: { header: string; check: CsvCheck; aliases: string[] };
  /** In words, for messages ("a different unit size"); the web app's sentences have their own (web/src/item-fields.ts). */
  label: string;
}

/**
 * The item's own fields, in the order of the CSV columns (docs/csv.md) and the request bodies (docs/adding-an-item-field.md
 * says which files follow from here). The contract's InventoryItem above is rendered by ./render.ts, field by field.
 */
export const ITEM_FIELDS = {
  name: {
    body: Type.String({ minLength: 1, maxLength: 500 }),
    column: 'name',
    csv: csv('name', 'name', 'item_name', 'item'),
    label: 'name',
  },
  type_id: { body: NUuid, column: 'type_id', csv: csv('type', 'type name', 'type_name'), label: 'type' },
  vendor: { body: NString, column: 'vendor', csv: csv('vendor', 'text', 'vendor_name', 'supplier', 'manufacturer'), label: 'vendor' },
  catalog_number: {
    body: NString,
    column: 'catalog_number',
    csv: csv('catalog_number', 'text', 'catalog', 'catalog_no', 'catalog_#', 'catalogue_number', 'cat_no', 'cat_#'),
    label: 'catalog number',
  },
  cas_number: { body: NString, column: 'cas_number', csv: csv('cas_number', 'text', 'cas', 'cas_no', 'cas_#'), label: 'CAS number' },
  unit_size: { body: NString, column: 'unit_size', csv: csv('unit_size', 'text', 'unit'), label: 'unit size' },
  price: { body: NDecimal, column: 'price', csv: csv('price', 'decimal'), label: 'price' },
  quantity: { body: DecimalString, column: 'quantity', legacyOnly: true, csv: csv('quantity', 'decimal', 'qty'), label: 'quantity' },
  lot_number: {
    body: NString,
    column: 'lot_number',
    legacyOnly: true,
    csv: csv('lot_number', 'text', 'lot', 'lot_no', 'batch'),
    label: 'lot number',
  },
  expiration_date: {
    body: NDate,
    column: 'expiration_date',
    legacyOnly: true,
    csv: csv('expiration_date', 'date', 'expiry', 'expiry_date', 'expiration', 'expires'),
    label: 'expiration date',
  },
  location: {
    body: Place,
    column: 'location_name',
    legacyOnly: true,
    csv: csv('location', 'location path', 'location_path'),
    label: 'location',
  },
  // The CSV's location column holds both levels of a legacy place (its path).
  sublocation: { body: Place, column: 'sublocation_name', legacyOnly: true, label: 'sublocation' },
  serial_number: {
    body: NString,
    column: 'serial_number',
    csv: csv('serial_number', 'text', 'serial', 'serial_no'),
    label: 'serial number',
  },
  url: { body: WebPage, column: 'url', csv: csv('url', 'web page'), label: 'web page' },
  vendor_product_id: { body: NUuid, column: 'vendor_product_id', csv: csv('vendor_product_id', 'uuid'), label: 'vendor product' },
  auto_reminder: { body: NString, column: 'auto_reminder', csv: csv('auto_reminder', 'text'), label: 'auto reminder' },
  technical_details: {
    body: NString,
    column: 'technical_details',
    csv: csv('technical_details', 'text', 'notes'),
    label: 'technical details',
  },
} as const satisfies Record<string, ItemFieldSpec>;

type Fields = typeof ITEM_FIELDS;
export type ItemFieldKey = keyof Fields;
export const ITEM_FIELD_KEYS = Object.keys(ITEM_FIELDS) as ItemFieldKey[];
/** The fields an item keeps only in a lab that does not use instances. */
export const LEGACY_ONLY_FIELDS = ITEM_FIELD_KEYS.filter((k) => 'legacyOnly' in ITEM_FIELDS[k]);

export type ItemColumn = Fields[ItemFieldKey]['column'];
export const ITEM_COLUMNS = ITEM_FIELD_KEYS.map((k) => ITEM_FIELDS[k].column);

/** An item as the seed, the fixtures, receiving and the CSV import give it: its columns in camelCase, name required. */
export type NewItem = { labId: string; name: string } & {
  [K in ItemFieldKey as Camel<Fields[K]['column']>]?: InventoryItemsTable[Fields[K]['column']];
};

/** Every field, optional, as the edit body takes them (the create body too, but for its name). */
const itemFields = Object.fromEntries(ITEM_FIELD_KEYS.map((k) => [k, Type.Optional(ITEM_FIELDS[k].body)])) as {
  [K in ItemFieldKey]: TOptional<Fields[K]['body']>;
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

/** POST /inventory-items/{id}/instances: an instance, with the GTIN and serial its vendor barcode gave (docs/scanning.md). */
export const InstanceAddBody = Type.Object(
  { ...InstanceCreateBody.properties, identifiers: Type.Optional(ReceivedIdentifiers) },
  { additionalProperties: false },
);
export type InstanceAdd = Static<typeof InstanceAddBody>;

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
    ...itemFields,
    name: ITEM_FIELDS.name.body,
    instances: Type.Optional(Type.Array(InstanceCreateBody, { maxItems: 100 })),
  },
  { additionalProperties: false },
);
export type ItemCreate = Static<typeof ItemCreateBody>;

export const ItemEditBody = Type.Object(itemFields, { additionalProperties: false });
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

// Search and filters: GET /inventory-items's query (src/inventory/search/schemas.ts).
export { ItemListQuery } from './search/schemas.js';

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
