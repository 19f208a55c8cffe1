import { recordControlledChanges, type StockChange } from '../controlled/ledger.js';
import type { Executor } from '../shared/db/database.js';
import { newId } from '../shared/ids.js';
import { insertChanges } from './repository.js';

// The rows of an item's history (inventory_item_changes), built in one place for every change that records one
// (items.ts, instances.ts, quantities.ts, quantity-fast.ts, minimum.ts, counting.ts, src/lab-migration/service.ts); history.ts
// reads them back as GET /inventory-items/{id}/history's entries.

/**
 * One line of history: which field, from what to what; of an instance, with a note, from an order request, from a
 * count (`stocktakeSessionId`, src/inventory/counting.ts). The controlled-substance ledger reads the same lines, so
 * the shape is declared once, below inventory, in src/controlled/rules.ts.
 */
export type HistoryEntry = StockChange;

/** Whose item, by whom, when: the same for every line one change writes. */
export interface HistoryAt {
  itemId: string;
  userId: string;
  now: string;
  /** false: the caller knows the item is not a controlled substance (src/inventory/quantity-fast.ts's budget). */
  controlled?: boolean;
}

export const historyRow = (at: HistoryAt, e: HistoryEntry) => ({
  id: newId(),
  item_id: at.itemId,
  instance_id: e.instanceId ?? null,
  user_id: at.userId,
  field: e.field,
  old_value: e.old ?? null,
  new_value: e.new ?? null,
  note: e.note ?? null,
  order_request_id: e.orderRequestId ?? null,
  ...(e.stocktakeSessionId ? { stocktake_session_id: e.stocktakeSessionId } : {}),
  created_at: at.now,
});

/**
 * Writes the lines one change made to one item, in the caller's transaction, and, when the item is a controlled
 * substance, its ledger entries with them (src/controlled/ledger.ts): every change that records history passes here.
 */
export async function recordHistory(trx: Executor, at: HistoryAt, entries: HistoryEntry[]): Promise<void> {
  await insertChanges(
    trx,
    entries.map((e) => historyRow(at, e)),
  );
  await recordControlledChanges(trx, at, entries);
}
