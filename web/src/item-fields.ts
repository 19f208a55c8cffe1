import type { operations } from '@labstock/client';

// The item's own fields as the web app shows them: the item form's inputs and labels (components/ItemForm.tsx) and
// the words a history sentence names them by (components/ItemHistory.tsx). Keyed by the fields PATCH
// /inventory-items/{id} takes, as the generated client types them: a field the server's table adds
// (src/inventory/schemas.ts ITEM_FIELDS) does not compile here until it has its line (docs/adding-an-item-field.md).

/** The fields PATCH /inventory-items/{id} takes; POST takes the same plus lab_id and instances. */
export type ItemFields = operations['updateInventoryItem']['requestBody']['content']['application/json'];
export type ItemFieldKey = keyof ItemFields;

/** How the form asks for a field: a line of text, a paragraph, a decimal, a web address, a date, the lab's type, a place by name. */
export type FieldInput = 'text' | 'long text' | 'decimal' | 'web page' | 'date' | 'type' | 'place';

export interface ItemFieldWords {
  /** The form's label. */
  label: string;
  /** Its input on the item form; none: not on it (set elsewhere on the item's page, or not by people). */
  input?: FieldInput;
  placeholder?: string;
  /** On the form of a legacy lab's item only (in a lab that uses instances, each instance has its own). */
  legacyOnly?: true;
  /** What a history sentence calls it: "set the catalog number to …". */
  words: string;
}

/** In the order the form shows them (name first, on its own line; paragraphs last). */
export const ITEM_FIELD_WORDS = {
  name: { label: 'Name', input: 'text', words: 'the name' },
  type_id: { label: 'Type', input: 'type', words: 'the type' },
  vendor: { label: 'Vendor', input: 'text', words: 'the vendor' },
  catalog_number: { label: 'Catalog number', input: 'text', words: 'the catalog number' },
  cas_number: { label: 'CAS number', input: 'text', placeholder: 'e.g. 64-17-5', words: 'the CAS number' },
  unit_size: { label: 'Unit size', input: 'text', placeholder: 'e.g. 500 mL', words: 'the unit size' },
  price: { label: 'Price', input: 'decimal', placeholder: 'e.g. 42.50', words: 'the price' },
  serial_number: { label: 'Serial number', input: 'text', words: 'the serial number' },
  url: { label: 'Web page', input: 'web page', placeholder: 'https://', words: 'the web page' },
  lot_number: { label: 'Lot number', input: 'text', legacyOnly: true, words: 'the lot number' },
  expiration_date: { label: 'Expires on', input: 'date', legacyOnly: true, words: 'the expiration date' },
  location: { label: 'Storage location', input: 'place', placeholder: 'e.g. Cabinet 1', legacyOnly: true, words: 'the location' },
  sublocation: { label: 'Sublocation', input: 'place', placeholder: 'e.g. Shelf A', legacyOnly: true, words: 'the sublocation' },
  technical_details: { label: 'Technical details', input: 'long text', words: 'the technical details' },
  quantity: { label: 'Quantity', words: 'the quantity' },
  vendor_product_id: { label: 'Shop product', words: 'the shop product' },
  auto_reminder: { label: 'Expiry reminder', words: 'the expiry reminder' },
} as const satisfies { [K in ItemFieldKey]-?: ItemFieldWords };

type Words = typeof ITEM_FIELD_WORDS;
/** The fields the item form asks for. */
export type FormField = { [K in ItemFieldKey]: Words[K] extends { input: FieldInput } ? K : never }[ItemFieldKey];
export const FORM_FIELDS = (Object.keys(ITEM_FIELD_WORDS) as ItemFieldKey[]).filter((k): k is FormField => 'input' in ITEM_FIELD_WORDS[k]);

/** The fields the form sends for an item of a lab that uses instances or not. */
export const formFieldsFor = (usesInstances: boolean): FormField[] =>
  FORM_FIELDS.filter((k) => !usesInstances || !('legacyOnly' in ITEM_FIELD_WORDS[k]));

/** What a history sentence calls a field of the item; undefined for one that is not (instance.*, minimum_quantity). */
export const fieldWords = (field: string): string | undefined =>
  field in ITEM_FIELD_WORDS ? ITEM_FIELD_WORDS[field as ItemFieldKey].words : undefined;
