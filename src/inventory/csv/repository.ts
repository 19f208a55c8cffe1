import { holdingsAdded } from '../../hazards/holdings-repository.js';
import { forEachChunk } from '../../shared/db/chunks.js';
import type { Executor } from '../../shared/db/database.js';
import type { InstanceRow, ItemRow } from '../repository.js';
import { ITEM_COLUMNS, type ItemColumn } from '../schemas.js';

// The queries of a lab's CSV export and import (src/inventory/csv/): the lab's items in keyset pages, and the
// items and instances an import writes in multi-row statements inside its one transaction.

export interface Cursor {
  createdAt: string;
  id: string;
}

/** The item columns the export writes (docs/csv.md), and the keyset's: a narrower row costs less to read. */
const EXPORT_COLUMNS = ['id', 'created_at', ...ITEM_COLUMNS] as const;
export type ExportItem = Pick<ItemRow, 'id' | 'created_at' | ItemColumn>;

/**
 * The next `limit` items of the lab after the cursor, in (created_at, id) order: a range of the (lab_id,
 * created_at, id) index, by a row comparison, which both databases answer from the index.
 */
export function labItemsAfter(ex: Executor, labId: string, cursor: Cursor | null, limit: number): Promise<ExportItem[]> {
  let q = ex.selectFrom('inventory_items').select(EXPORT_COLUMNS).where('lab_id', '=', labId);
  if (cursor) q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(cursor.createdAt, cursor.id)));
  return q.orderBy('created_at').orderBy('id').limit(limit).execute();
}

export async function countLabItems(ex: Executor, labId: string): Promise<number> {
  const r = await ex
    .selectFrom('inventory_items')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('lab_id', '=', labId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

// Item rows are ~30 columns: 500 a statement stays far below SQLite's bound-parameter limit (src/shared/db/chunks.ts).
export async function insertItems(ex: Executor, rows: ItemRow[]): Promise<void> {
  await forEachChunk(rows, (chunk) => ex.insertInto('inventory_items').values(chunk).execute());
}

export async function insertInstances(ex: Executor, rows: InstanceRow[]): Promise<void> {
  // What they hold is added to their locations' holdings (src/hazards/holdings-repository.ts).
  await forEachChunk(rows, (chunk) => ex.insertInto('inventory_item_instances').values(chunk).execute());
  await holdingsAdded(ex, { instanceIds: rows.map((r) => r.id) });
}
