import { camel } from '../shared/camel.js';
import { nameSortKey, soonestExpiry } from '../shared/search-text.js';
import type { ItemRow } from './repository.js';
import { ITEM_FIELD_KEYS, ITEM_FIELDS, type ItemCreate, type ItemFieldKey, type NewItem } from './schemas.js';

// An item's fields between the API's bodies, NewItem and the inventory_items row, field by field from the table
// (src/inventory/schemas.ts ITEM_FIELDS): adding a field there adds it here.

/** What a field's column holds when it is not given (a legacy-only field in a lab that uses instances too). */
const blank = (field: ItemFieldKey): string | null => (field === 'quantity' ? '0' : null);

/** A body's value as its column keeps it: a legacy place is kept by its name. */
export function columnValue(field: ItemFieldKey, value: unknown): string | null {
  if (field === 'location' || field === 'sublocation') return (value as { name: string } | null)?.name ?? null;
  return value as string | null;
}

/** POST /inventory-items's body as NewItem: the fields given, each under its column's camelCase name. */
export function newItemOf(labId: string, input: ItemCreate): NewItem {
  const item: Record<string, unknown> = { labId, name: input.name };
  for (const field of ITEM_FIELD_KEYS) {
    if (input[field] !== undefined) item[camel(ITEM_FIELDS[field].column)] = columnValue(field, input[field]);
  }
  return item as NewItem;
}

/**
 * A new item's row, as every way of creating items writes it (createItemIn in items.ts, the CSV import in
 * csv/import.ts): legacy-only fields empty in a lab that uses instances, version 1, no minimum. `expiries` are the
 * dates its soonest expiry is taken from when they are known at once (the CSV import's instances); otherwise the
 * item's own date in a legacy lab, and the index (search/rules.ts) fills it as instances are added.
 */
export function newItemRow(
  input: NewItem,
  migrated: boolean,
  at: { id: string; userId: string; now: string; expiries?: (string | null)[] },
): ItemRow {
  const given = input as Record<string, string | null | undefined>;
  const fields: Record<string, string | null> = {};
  for (const field of ITEM_FIELD_KEYS) {
    const { column } = ITEM_FIELDS[field];
    const legacyOnly = 'legacyOnly' in ITEM_FIELDS[field];
    fields[column] = migrated && legacyOnly ? blank(field) : (given[camel(column)] ?? blank(field));
  }
  return {
    id: at.id,
    lab_id: input.labId,
    ...(fields as Pick<ItemRow, (typeof ITEM_FIELDS)[ItemFieldKey]['column']>),
    name: input.name,
    added_by: at.userId,
    updated_by: at.userId,
    version: 1,
    created_at: at.now,
    updated_at: at.now,
    minimum_quantity: null,
    below_minimum: 0,
    soonest_expiry: soonestExpiry(at.expiries ?? [migrated ? null : input.expirationDate]),
    name_key: nameSortKey(input.name),
    // Written once the item is rendered, in the same transaction (src/inventory/stored/).
    rendered: null,
    rendered_shape: null,
  };
}
