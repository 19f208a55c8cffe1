import { nameSortKey, soonestExpiry } from '../shared/search-text.js';
import type { NewItem } from './items.js';
import type { ItemRow } from './repository.js';

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
  return {
    id: at.id,
    lab_id: input.labId,
    type_id: input.typeId ?? null,
    name: input.name,
    vendor: input.vendor ?? null,
    catalog_number: input.catalogNumber ?? null,
    price: input.price ?? null,
    unit_size: input.unitSize ?? null,
    quantity: migrated ? '0' : (input.quantity ?? '0'),
    url: input.url ?? null,
    technical_details: input.technicalDetails ?? null,
    expiration_date: migrated ? null : (input.expirationDate ?? null),
    auto_reminder: input.autoReminder ?? null,
    lot_number: migrated ? null : (input.lotNumber ?? null),
    cas_number: input.casNumber ?? null,
    vendor_product_id: input.vendorProductId ?? null,
    location_name: migrated ? null : (input.locationName ?? null),
    sublocation_name: migrated ? null : (input.sublocationName ?? null),
    serial_number: input.serialNumber ?? null,
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
