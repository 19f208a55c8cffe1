import { visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import type { AttachmentChunksTable, AttachmentsTable } from '../shared/db/schema.js';
import type { Page } from '../shared/pagination.js';

// attachments and attachment_chunks are this folder's (migration 0032). The owners' tables are read only.

export type AttachmentRow = AttachmentsTable;
export type OwnerColumn = 'item_id' | 'instance_id' | 'type_id';

/** An instance (archived ones too: a certificate stays with the lot) of an item in a lab the actor sees. */
export const findVisibleInstance = (ex: Executor, actor: Actor, itemId: string, instanceId: string) =>
  ex
    .selectFrom('inventory_item_instances as i')
    .innerJoin('inventory_items as it', 'it.id', 'i.item_id')
    .select(['i.id', 'i.item_id', 'it.lab_id', 'it.type_id'])
    .where('i.id', '=', instanceId)
    .where('i.item_id', '=', itemId)
    .where('it.lab_id', 'in', visibleLabIds(ex, actor))
    .executeTakeFirst();

/** A complete attachment (not an upload still being received) in a lab the actor sees; `lock` holds its row (PostgreSQL). */
export function findVisibleAttachment(ex: Executor, actor: Actor, id: string, opts: { lock?: boolean } = {}) {
  let q = ex
    .selectFrom('attachments')
    .selectAll()
    .where('id', '=', id)
    .where('content_id', 'is not', null)
    .where('lab_id', 'in', visibleLabIds(ex, actor));
  if (opts.lock && isPostgres(ex)) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** One page of the complete attachments of one owner, oldest first, and how many there are. */
export async function pageAttachmentsOf(ex: Executor, column: OwnerColumn, ownerId: string, page: Page) {
  const base = ex.selectFrom('attachments').where(column, '=', ownerId).where('content_id', 'is not', null);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
    base.selectAll().orderBy('created_at').orderBy('id').limit(page.perPage).offset(page.offset).execute(),
  ]);
  return { total: Number(count.n), rows };
}

export async function insertAttachment(ex: Executor, row: AttachmentRow): Promise<void> {
  await ex.insertInto('attachments').values(row).execute();
}

export async function insertChunk(ex: Executor, row: AttachmentChunksTable): Promise<void> {
  await ex.insertInto('attachment_chunks').values(row).execute();
}

/** One chunk's bytes, or undefined when that content is gone (replaced or deleted meanwhile). */
export async function readChunk(ex: Executor, contentId: string, seq: number): Promise<Buffer | undefined> {
  const row = await ex
    .selectFrom('attachment_chunks')
    .select('data')
    .where('content_id', '=', contentId)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row?.data;
}

/** Sets the content (and what describes it) of an attachment; false when the row is gone. */
export async function setContent(
  ex: Executor,
  id: string,
  set: Pick<AttachmentRow, 'content_id' | 'file_name' | 'media_type' | 'size_bytes' | 'sha256' | 'version' | 'updated_by' | 'updated_at'>,
): Promise<boolean> {
  const r = await ex.updateTable('attachments').set(set).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function deleteChunksOf(ex: Executor, contentId: string): Promise<void> {
  await ex.deleteFrom('attachment_chunks').where('content_id', '=', contentId).execute();
}

/** Deletes an attachment; its chunks go with it (ON DELETE CASCADE). */
export async function deleteAttachment(ex: Executor, id: string): Promise<boolean> {
  const r = await ex.deleteFrom('attachments').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/**
 * What uploads that never finished (a process that died mid-upload) left before `cutoff`: attachment rows still
 * without content, and chunks that no attachment's content names.
 */
export async function sweepUnfinished(ex: Executor, cutoff: string): Promise<void> {
  await ex.deleteFrom('attachments').where('content_id', 'is', null).where('created_at', '<', cutoff).execute();
  await ex
    .deleteFrom('attachment_chunks')
    .where('created_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('attachments as a')
            .select('a.id')
            .whereRef('a.id', '=', 'attachment_chunks.attachment_id')
            .whereRef('a.content_id', '=', 'attachment_chunks.content_id'),
        ),
      ),
    )
    .execute();
}

/** The item of each instance, by instance id. */
export async function itemsOfInstances(ex: Executor, instanceIds: string[]): Promise<Map<string, string>> {
  const rows = await ex.selectFrom('inventory_item_instances').select(['id', 'item_id']).where('id', 'in', instanceIds).execute();
  return new Map(rows.map((r) => [r.id, r.item_id]));
}
