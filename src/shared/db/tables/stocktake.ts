import type { ColumnType } from 'kysely';

// Stocktake (migration 0033, docs/stocktake.md): count sessions of a location subtree and their counts, owned by
// src/stocktake/; and the session an item's history entry came from, on inventory_item_changes.

export type StocktakeStatus = 'open' | 'applied' | 'cancelled';

export interface StocktakeSessionsTable {
  id: string;
  lab_id: string;
  /**
   * The root of the counted subtree (no foreign key: the report outlives a deleted empty location); null: a count of
   * a lab that does not use instances, which covers the lab's items (migration 0035).
   */
  location_id: string | null;
  status: StocktakeStatus;
  started_by: string;
  started_at: string;
  /** Who applied or cancelled it, and when. */
  finished_by: string | null;
  finished_at: string | null;
  /** 1 when the apply set the quantity of every missing container to zero. */
  missing_to_zero: ColumnType<number, number | undefined, number>;
  /** The lines as they stood when it was applied (JSON of StocktakeLine[]); null until then. */
  result: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface StocktakeCountsTable {
  session_id: string;
  /** The container counted; in a count of a lab that does not use instances, the item's id (migration 0035). */
  instance_id: string;
  item_id: string;
  /** A decimal string: what was counted; null: there, as recorded (ticked). */
  quantity: string | null;
  /** The inventory's quantity and location when it was counted. */
  recorded_quantity: string;
  recorded_location_id: string | null;
  /** Where it was found when that is not where it is recorded; null: where recorded. */
  found_location_id: string | null;
  counted_by: string;
  counted_at: string;
}

export interface ItemChangeStocktakeColumns {
  /** Optional on insert (older writers leave it null), always present when read. */
  stocktake_session_id: ColumnType<string | null, string | null | undefined, string | null>;
}
