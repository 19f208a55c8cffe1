import { emitEvent } from '../events/outbox.js';
import { assertLabNotMigrating, isMigrating, labMigrating } from '../labs/migrating.js';
import { findLabRow } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, notFound } from '../shared/errors.js';
import { renderItem } from './render.js';
import * as repo from './repository.js';
import { etagOf } from './rules.js';
import type { InventoryItem } from './schemas.js';
import { documentOf, storeChanged } from './stored/documents.js';
import { currentDocument } from './stored/shape.js';

// How every change to an item starts and ends, whichever part of it changes (items.ts, instances.ts,
// quantities.ts): the item locked, its ETag compared, its version bumped, its event emitted in the same transaction.

export interface ItemWithEtag {
  item: InventoryItem;
  etag: string;
  /** The item's document: the text the response sends (src/inventory/stored/). */
  json: string;
}

export const preconditionFailed = () =>
  new AppError('precondition_failed', 'The item changed since you read it (If-Match does not match its ETag); fetch it again and retry');

/** The item as it stands, with its ETag (a read, or a change that changed nothing). */
export async function asItIs(ex: Executor, deps: ServiceDeps, row: repo.ItemRow): Promise<ItemWithEtag> {
  const item = await renderItem(ex, deps.config.appUrl, row);
  return { item, etag: etagOf(row.version), json: currentDocument(row) ?? documentOf(item) };
}

/** The caller's item, locked for the change; 409 lab_migrating while its lab migrates. */
export async function lockVisibleItem(trx: Executor, actor: Actor, id: string): Promise<repo.ItemRow> {
  const row = await repo.findVisibleItem(trx, actor, id, { lock: true });
  if (!row) throw notFound('inventory item');
  await assertLabNotMigrating(trx, row.lab_id); // under the item's lock: 409 lab_migrating while the lab migrates
  return row;
}

/**
 * Re-reads and renders the item inside the transaction, updates its search index and stored document, emits inventory-item.updated,
 * returns it with its ETag.
 */
export async function finishItemChange(trx: Executor, deps: ServiceDeps, itemId: string): Promise<ItemWithEtag> {
  const row = (await repo.findItem(trx, itemId))!;
  const lab = (await findLabRow(trx, row.lab_id))!;
  // Checked here, after the change wrote the item row (and so holds its lock): 409 rolls it back during a migration.
  if (isMigrating(lab)) throw labMigrating();
  const item = await renderItem(trx, deps.config.appUrl, row);
  const [json] = await storeChanged(trx, [{ row, item }]);
  await emitEvent(trx, deps.config, { type: 'inventory-item.updated', organizationId: lab.organization_id, labId: lab.id, resource: item });
  return { item, etag: etagOf(row.version), json: json! };
}
