// Whether every item's stored document (src/inventory/stored/) is exactly what rendering it now gives: shared by the
// stored-document tests and the operation fuzzers (no tests in here).

import fastJson from 'fast-json-stringify';
import { expect } from 'vitest';
import { renderItems } from '../../src/inventory/render.js';
import { findItems } from '../../src/inventory/repository.js';
import { InventoryItem } from '../../src/inventory/schemas.js';
import { DOCUMENT_SHAPE } from '../../src/inventory/stored/shape.js';
import type { Harness } from './harness.js';

let serializer: ((doc: unknown) => string) | null = null;

/** The serializer GET used before documents were stored: fast-json-stringify of the route's InventoryItem schema. */
function routeSerializer(h: Harness): (doc: unknown) => string {
  if (!serializer) {
    const schemas = h.app.getSchemas() as Record<string, object>;
    serializer = fastJson(InventoryItem as never, { schema: schemas as never });
  }
  return serializer;
}

/**
 * Every item (or those given) has a stored document, and it is, byte for byte, a fresh render of the item as the
 * route's serializer writes it, recorded with this version's shape (src/inventory/stored/shape.ts). `missingAllowed`: items written straight to the tables by a test may have none.
 */
export async function expectDocumentsFresh(h: Harness, opts: { itemIds?: string[]; missingAllowed?: boolean } = {}): Promise<number> {
  const db = h.deps.db;
  let q = db.selectFrom('inventory_items').select(['id', 'rendered', 'rendered_shape']);
  if (opts.itemIds) q = q.where('id', 'in', opts.itemIds.length ? opts.itemIds : ['-']);
  const rows = await q.execute();
  if (rows.length === 0) return 0;
  const stored = new Map(rows.map((r) => [r.id, r.rendered]));
  const shapes = new Map(rows.map((r) => [r.id, r.rendered_shape]));
  const fresh = await renderItems(
    db,
    h.config.appUrl,
    await findItems(
      db,
      rows.map((r) => r.id),
    ),
  );
  const serialize = routeSerializer(h);
  let compared = 0;
  for (const item of fresh) {
    const doc = stored.get(item.id) ?? null;
    if (doc === null && opts.missingAllowed) continue;
    expect(doc, `item ${item.id} (${item.name}) has no stored document`).not.toBeNull();
    expect(doc, `item ${item.id} (${item.name}): stored document differs from a fresh render`).toBe(serialize(item));
    expect(shapes.get(item.id), `item ${item.id} (${item.name}): stored without this version's shape`).toBe(DOCUMENT_SHAPE);
    compared++;
  }
  return compared;
}

/** What GET should send for the item now: a fresh render, as the route's serializer writes it. */
export async function freshDocument(h: Harness, itemId: string): Promise<string> {
  const [item] = await renderItems(h.deps.db, h.config.appUrl, await findItems(h.deps.db, [itemId]));
  return routeSerializer(h)(item);
}
