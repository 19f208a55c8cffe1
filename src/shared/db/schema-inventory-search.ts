import type { ColumnType, Generated } from 'kysely';

// The columns and table of inventory search, filters and minimum quantities (migration 0010,
// src/inventory/search/rules.ts). Kept beside schema.ts, which lists them in its Database interface.

/**
 * What an item is filtered and sorted by, kept current in the transaction of every change to it or its instances.
 * Optional on insert (the database has defaults); src/inventory/search/repository.ts sets them once the item is written.
 */
export interface InventorySearchColumns {
  /** Decimal string set with PUT /inventory-items/{id}/minimum-quantity; null when none is set. */
  minimum_quantity: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 when a minimum is set and the item's quantity (the sum of its active instances in a migrated lab) is below it. */
  below_minimum: Generated<number>;
  /** The earliest expiry of the item (legacy field) or of its active instances; NO_EXPIRY (src/shared/search-text.ts) without one. */
  soonest_expiry: Generated<string>;
  /** The name as sorted (src/shared/search-text.ts nameSortKey); byte order on both databases. */
  name_key: Generated<string>;
  /**
   * The item's document: exactly the JSON text GET serves (migration 0017, src/inventory/stored/); null until written
   * (an item written by an older version or loaded in bulk), and then rendered when read.
   */
  rendered: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The shape `rendered` was written with (migration 0030, src/inventory/stored/shape.ts); a document of another
   * shape, or of none, counts as missing.
   */
  rendered_shape: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * One row per item: the words it is found by, with the item's lab and creation time (which never change), so that
 * a search is counted and ordered here. SQLite indexes `document` in the FTS5 table inventory_item_search_fts
 * (external content, kept by triggers); PostgreSQL in a GIN index on its tsvector.
 */
export interface InventoryItemSearchTable {
  id: Generated<number>;
  item_id: string;
  lab_id: string;
  created_at: string;
  document: string;
}

/** One row (id 1): the APP_URL the stored documents' app_url was rendered with. */
export interface InventoryDocumentSettingsTable {
  id: number;
  app_url: string;
  /** The shape the last complete rebuild brought every document to (migration 0030); null before one finished. */
  shape: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Each lab's number of items, kept by triggers on inventory_items (migration 0017). */
export interface InventoryLabCountsTable {
  lab_id: string;
  items: number;
}

/** A run of a lab's or an organization's items in the list's order, from its key to the next run's (migration 0044). */
export interface InventoryPageMarksTable {
  /** A lab's id or an organization's. */
  scope_id: string;
  created_at: string;
  item_id: string;
  items: number;
}
