import type { Actor } from '../../shared/actor.js';
import type { Db, Executor } from '../../shared/db/database.js';
import { notFound } from '../../shared/errors.js';
import { onShownChange, type ShownChange } from '../../shared/shown-elsewhere.js';
import { renderItems } from '../render.js';
import * as items from '../repository.js';
import { etagOf } from '../rules.js';
import type { InventoryItem } from '../schemas.js';
import { storeItemIndexes } from '../search/repository.js';
import { itemIndexOf } from '../search/rules.js';
import * as repo from './repository.js';
import { currentDocument } from './shape.js';

// Stored item documents (docs/decisions/0015-stored-item-documents.md): each item's JSON exactly as GET serves it,
// kept in its row (inventory_items.rendered) and rewritten in the transaction of every change that alters it
// (../changes.ts, ../items.ts, ../stored-at.ts, the CSV import, a lab's migration, and the names it shows:
// registered below). Reads send the stored text; an item with no document yet (written by an older version, or
// loaded in bulk) or with one of another shape (./shape.ts: an upgrade changed what a document holds) is rendered
// as before, and the rebuild (./rebuild.ts) writes the missing ones.

/**
 * The text stored, served and sent in the item's events. renderItems builds the item's keys in the order of the
 * InventoryItem schema, so this is what the route's serializer wrote (test/helpers/stored-documents.ts holds them equal).
 */
export const documentOf = (item: InventoryItem): string => JSON.stringify(item);

/**
 * After a change: stores what the items are found by and their documents (one update per item; the search words
 * only where they changed, judged from the previous document when there is one). Returns the documents' texts.
 */
export async function storeChanged(trx: Executor, entries: { row: items.ItemRow; item: InventoryItem }[]): Promise<string[]> {
  const texts = entries.map((e) => documentOf(e.item));
  // One item (every change through the API): its columns and document in one update. Many (an import, a migration
  // batch, a location's rename): the documents in bulk statements, the columns only where they changed.
  const single = entries.length === 1;
  if (!single)
    await repo.setDocuments(
      trx,
      entries.map((e, i) => ({ id: e.row.id, rendered: texts[i]! })),
    );
  await storeItemIndexes(
    trx,
    entries.map(({ row, item }, i) => {
      const index = itemIndexOf(item, row.minimum_quantity);
      const previous = currentDocument(row);
      const before = previous === null ? null : itemIndexOf(JSON.parse(previous) as InventoryItem, row.minimum_quantity);
      return { row, index, unchangedWords: before?.document === index.document, ...(single ? { rendered: texts[i]! } : {}) };
    }),
  );
  return texts;
}

/** Renders the items as they stand now and stores their documents (no new version, no event). */
export async function rerender(trx: Executor, appUrl: string, itemIds: string[]): Promise<void> {
  const BATCH = 500;
  for (let start = 0; start < itemIds.length; start += BATCH) {
    const ids = itemIds.slice(start, start + BATCH);
    await repo.lockItems(trx, ids);
    const rows = await items.findItems(trx, ids);
    const rendered = await renderItems(trx, appUrl, rows);
    await repo.setDocuments(
      trx,
      rendered.map((item) => ({ id: item.id, rendered: documentOf(item) })),
    );
  }
}

/**
 * A lab's migration flipped it to instances (src/lab-migration/service.ts): the items converted with an instance were
 * stored as migrated already (they render so while the lab migrates); those left without one rendered as legacy
 * until now, and are written again.
 */
export async function labFlippedToInstances(trx: Executor, appUrl: string, labId: string): Promise<void> {
  await rerender(trx, appUrl, await repo.itemIdsWithoutInstances(trx, labId));
}

/** A lab's, a type's or a person's name changed (or a lab's mode): the documents showing it are rewritten. */
async function rerenderShown(trx: Executor, appUrl: string, change: ShownChange): Promise<void> {
  const ids = new Set<string>();
  if (change.labIds?.length) for (const id of await repo.itemIdsOfLabs(trx, change.labIds)) ids.add(id);
  if (change.typeIds?.length) for (const id of await repo.itemIdsOfTypes(trx, change.typeIds)) ids.add(id);
  if (change.userIds?.length) for (const id of await repo.itemIdsOfUsers(trx, change.userIds)) ids.add(id);
  await rerender(trx, appUrl, [...ids].sort());
}
onShownChange(rerenderShown);

/** GET /inventory-items/{id}: the stored text (rendered when none of this shape is stored) and the ETag. */
export async function readItemDocument(db: Db, appUrl: string, actor: Actor, id: string): Promise<{ json: string; etag: string }> {
  const found = await repo.visibleDocument(db, actor, id);
  if (!found) throw notFound('inventory item');
  const stored = currentDocument(found);
  if (stored !== null) return { json: stored, etag: etagOf(found.version) };
  const row = await items.findVisibleItem(db, actor, id);
  if (!row) throw notFound('inventory item');
  const [item] = await renderItems(db, appUrl, [row]);
  return { json: documentOf(item!), etag: etagOf(row.version) };
}

/** A page's documents in its order, rendering those not stored yet or of another shape (one batch for them all). */
export async function pageDocuments(
  ex: Executor,
  appUrl: string,
  rows: { id: string; rendered: string | null; rendered_shape: string | null }[],
): Promise<string[]> {
  const stored = rows.map(currentDocument);
  const missing = rows.filter((_, i) => stored[i] === null).map((r) => r.id);
  if (missing.length === 0) return stored as string[];
  const rendered = new Map((await renderItems(ex, appUrl, await items.findItems(ex, missing))).map((i) => [i.id, documentOf(i)]));
  // An item deleted between the page's statement and this one leaves the page.
  return rows.flatMap((r, i) => stored[i] ?? rendered.get(r.id) ?? []);
}

/** The list's body: the documents in a JSON array, never parsed. */
export const jsonArray = (texts: string[]): string => `[${texts.join(',')}]`;
