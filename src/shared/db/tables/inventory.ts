import type { Generated } from 'kysely';

// What a lab keeps: types (src/types/), locations (src/locations/), and items, their instances and their history
// (src/inventory/).
// Column choices (text ids, dates and decimals; 0/1 booleans): src/shared/db/schema.ts.

export interface TypesTable {
  id: string;
  lab_id: string;
  name: string;
  name_key: string;
  created_at: string;
  updated_at: string;
}
export interface LocationsTable {
  id: string;
  lab_id: string;
  parent_id: string | null;
  name: string;
  created_at: string;
}
export interface InventoryItemsTable {
  id: string;
  lab_id: string;
  type_id: string | null;
  name: string;
  vendor: string | null;
  catalog_number: string | null;
  price: string | null;
  unit_size: string | null;
  quantity: string;
  url: string | null;
  technical_details: string | null;
  expiration_date: string | null;
  auto_reminder: string | null;
  lot_number: string | null;
  cas_number: string | null;
  vendor_product_id: string | null;
  location_name: string | null;
  sublocation_name: string | null;
  serial_number: string | null;
  added_by: string;
  updated_by: string;
  version: number;
  created_at: string;
  updated_at: string;
}
export interface InstancesTable {
  id: string;
  item_id: string;
  quantity: string;
  lot_number: string | null;
  expiration_date: string | null;
  location_id: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  /** When it arrived without a lot, expiry or location and waits to be put away (migration 0028); null: nothing due. */
  put_away_due_at?: string | null;
}
/**
 * What is stored at a location, summed per unit size, hazard statements and storage attributes in force (migration 0043,
 * src/inventory/holdings-repository.ts): the control-area meter and limit check read these few rows, not the containers.
 */
export interface LocationHoldingsTable {
  location_id: string;
  /** The items' unit size ('' when they have none). */
  unit_size: string;
  /** The statements in force, sorted and space-separated; holdings with neither these nor attributes have no rows. */
  hazard_codes: string;
  /** The storage attributes in force ('acid', 'base', 'aqueous', 'acid aqueous' or ''). */
  storage: string;
  /** Active containers; a row that went back to 0 stays until the location goes. */
  containers: number;
  /** Their summed quantity, an exact decimal. */
  quantity: string;
  /** Written rows count up from 1 (migration 0045): what the meter's memory checks (src/inventory/area-holdings.ts). */
  version: Generated<number>;
}
/** Which items' containers make up each holding of location_holdings, and how many (migration 0043). */
export interface LocationHoldingItemsTable {
  location_id: string;
  unit_size: string;
  hazard_codes: string;
  storage: string;
  item_id: string;
  containers: number;
}
export interface ItemChangesTable {
  id: string;
  item_id: string;
  instance_id: string | null;
  user_id: string;
  field: string;
  old_value: string | null;
  new_value: string | null;
  note: string | null;
  created_at: string;
}
