import { flatMapChunks, forEachChunk } from '../../../shared/db/chunks.js';
import type { Executor } from '../../../shared/db/database.js';
import { isPostgres } from '../../../shared/db/database.js';
import type { ItemRow } from '../../repository.js';
import { DOCUMENT_SHAPE } from '../../stored/shape.js';
import { type ItemIndex, SEARCH_IDS_PER_SECOND, searchIdBase } from '../rules.js';

// The search index's writes: what an item is filtered, sorted and found by (../rules.ts itemIndexOf), stored in the
// transaction of each change (src/inventory/changes.ts, the CSV import, a lab's migration). ../repository.ts reads it.

/**
 * Stores the items' index where it changed, and their stored documents (`rendered`, src/inventory/stored/): the item
 * columns and the document in one update per item, the search words in one upsert per chunk, skipped for items
 * whose words are known not to have changed (`unchangedWords`, when the caller had the item's previous document).
 */
export async function storeItemIndexes(
  ex: Executor,
  entries: { row: ItemRow; index: ItemIndex; rendered?: string; unchangedWords?: boolean }[],
): Promise<void> {
  for (const { row, index, rendered } of entries) {
    const same =
      row.name_key === index.name_key && row.soonest_expiry === index.soonest_expiry && row.below_minimum === index.below_minimum;
    if (same && rendered === undefined) continue;
    await ex
      .updateTable('inventory_items')
      .set({
        name_key: index.name_key,
        soonest_expiry: index.soonest_expiry,
        below_minimum: index.below_minimum,
        ...(rendered === undefined ? {} : { rendered, rendered_shape: DOCUMENT_SHAPE }),
      })
      .where('id', '=', row.id)
      .execute();
  }
  const words = entries.filter((e) => !e.unchangedWords);
  if (words.length === 0) return;
  const docs = words.map(({ row, index }) => ({
    item_id: row.id,
    lab_id: row.lab_id,
    created_at: row.created_at,
    document: index.document,
  }));
  if (isPostgres(ex)) return upsertDocuments(ex, docs);
  // SQLite: an existing row keeps its id; new rows get theirs in the list's order (rules.ts searchIdBase).
  const ids = await flatMapChunks(docs, (chunk) =>
    ex
      .selectFrom('inventory_item_search')
      .select('item_id')
      .where(
        'item_id',
        'in',
        chunk.map((d) => d.item_id),
      )
      .execute(),
  );
  const existing = new Set(ids.map((r) => r.item_id));
  await upsertDocuments(
    ex,
    docs.filter((d) => existing.has(d.item_id)),
  );
  const bySecond = new Map<number, SearchDoc[]>();
  for (const d of docs.filter((doc) => !existing.has(doc.item_id))) {
    const base = searchIdBase(d.created_at);
    const group = bySecond.get(base);
    if (group) group.push(d);
    else bySecond.set(base, [d]);
  }
  for (const [base, group] of bySecond) await insertInOrder(ex, base, group);
}

interface SearchDoc {
  item_id: string;
  lab_id: string;
  created_at: string;
  document: string;
}

/** The documents, where they changed (one upsert per chunk). */
const upsertDocuments = (ex: Executor, docs: SearchDoc[]) =>
  forEachChunk(docs, (chunk) =>
    ex
      .insertInto('inventory_item_search')
      .values(chunk)
      .onConflict((oc) =>
        oc
          .column('item_id')
          .doUpdateSet({ document: (eb) => eb.ref('excluded.document') })
          .where('inventory_item_search.document', '<>', (eb) => eb.ref('excluded.document')),
      )
      .execute(),
  );

type Key = Pick<SearchDoc, 'created_at' | 'item_id'>;

/** The list's order: created_at, then id. */
const byKey = (a: Key, b: Key) =>
  a.created_at !== b.created_at ? (a.created_at < b.created_at ? -1 : 1) : a.item_id < b.item_id ? -1 : a.item_id > b.item_id ? 1 : 0;

/**
 * New search rows of one second of created_at (SQLite): after that second's last row, as items are created; or,
 * when one sorts before it (a clock set back), with the second's rows, renumbered in order.
 */
async function insertInOrder(ex: Executor, base: number, docs: SearchDoc[]): Promise<void> {
  docs.sort(byKey);
  const second = ex
    .selectFrom('inventory_item_search')
    .where('id', '>=', base)
    .where('id', '<', base + SEARCH_IDS_PER_SECOND);
  const last = await second.select(['id', 'item_id', 'lab_id', 'created_at']).orderBy('id', 'desc').limit(1).executeTakeFirst();
  let rows = docs;
  let next = base;
  if (last && byKey(last, docs[0]!) > 0) {
    const before = await second.select(['item_id', 'lab_id', 'created_at', 'document']).execute();
    await ex
      .deleteFrom('inventory_item_search')
      .where('id', '>=', base)
      .where('id', '<', base + SEARCH_IDS_PER_SECOND)
      .execute();
    rows = [...before, ...docs].sort(byKey);
  } else if (last) next = last.id + 1;
  await forEachChunk(
    rows.map((r, i) => ({ ...r, id: next + i })),
    (chunk) => ex.insertInto('inventory_item_search').values(chunk).execute(),
  );
}
