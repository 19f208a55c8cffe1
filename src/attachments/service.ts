import { userSummaries } from '../accounts/repository.js';
import { findVisibleItem } from '../inventory/repository.js';
import { requireLabManager } from '../labs/approval-settings.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { notFound } from '../shared/errors.js';
import type { Page } from '../shared/pagination.js';
import { findVisibleType } from '../types/repository.js';
import * as repo from './repository.js';
import { CHUNK_BYTES } from './rules.js';
import type { Attachment, AttachmentOwnerKind } from './schemas.js';

// Who sees and who changes attachments (docs/attachments.md, "Who may do what"):
// - seeing, listing and downloading follow the owner: whoever sees the item, the instance's item or the type (that
//   is, its lab) sees its documents; anyone else gets 404, as for the owner itself;
// - an item's and an instance's documents are added, replaced and deleted by anyone who sees the lab, as they add,
//   move and correct its stock;
// - a type's documents (a safety data sheet for every bottle of it) by the lab's managers and org admins only, who
//   alone create, rename and delete types (src/types/service.ts).

export type OwnerRef =
  | { kind: 'item'; itemId: string }
  | { kind: 'instance'; itemId: string; instanceId: string }
  | { kind: 'type'; typeId: string };

export interface Owner {
  kind: AttachmentOwnerKind;
  id: string;
  /** An instance's item; null otherwise. */
  itemId: string | null;
  labId: string;
  column: repo.OwnerColumn;
}

const COLUMN: Record<AttachmentOwnerKind, repo.OwnerColumn> = { item: 'item_id', instance: 'instance_id', type: 'type_id' };

/** The owner if the actor sees it; 404 otherwise (another organization's, a lab they are not in, none at all). */
export async function resolveOwner(ex: Executor, actor: Actor, ref: OwnerRef): Promise<Owner> {
  if (ref.kind === 'item') {
    const item = await findVisibleItem(ex, actor, ref.itemId);
    if (!item) throw notFound('inventory item');
    return { kind: 'item', id: item.id, itemId: null, labId: item.lab_id, column: COLUMN.item };
  }
  if (ref.kind === 'instance') {
    const inst = await repo.findVisibleInstance(ex, actor, ref.itemId, ref.instanceId);
    if (!inst) throw notFound('inventory item instance');
    return { kind: 'instance', id: inst.id, itemId: inst.item_id, labId: inst.lab_id, column: COLUMN.instance };
  }
  const type = await findVisibleType(ex, actor, ref.typeId);
  if (!type) throw notFound('type');
  return { kind: 'type', id: type.id, itemId: null, labId: type.lab_id, column: COLUMN.type };
}

/** 403 unless the actor may add, replace and delete the owner's documents (the owner is visible already). */
export async function requireWriter(ex: Executor, actor: Actor, owner: Pick<Owner, 'kind' | 'labId'>): Promise<void> {
  if (owner.kind === 'type') await requireLabManager(ex, actor, owner.labId, "add, replace and delete a type's documents");
}

export const ownerOfRow = (row: repo.AttachmentRow): Owner => {
  if (row.item_id) return { kind: 'item', id: row.item_id, itemId: null, labId: row.lab_id, column: COLUMN.item };
  if (row.instance_id) return { kind: 'instance', id: row.instance_id, itemId: null, labId: row.lab_id, column: COLUMN.instance };
  return { kind: 'type', id: row.type_id!, itemId: null, labId: row.lab_id, column: COLUMN.type };
};

export const downloadPath = (id: string): string => `/attachments/${id}/content`;

/** The resources of complete attachment rows (one query for the people, whatever their number). */
export async function renderAttachments(ex: Executor, rows: repo.AttachmentRow[], itemOfInstance?: string | null): Promise<Attachment[]> {
  const users = await userSummaries(
    ex,
    rows.flatMap((r) => [r.created_by, r.updated_by]),
  );
  const itemIds = new Map<string, string | null>();
  const unknown = rows.filter((r) => r.instance_id && itemOfInstance === undefined).map((r) => r.instance_id!);
  if (unknown.length > 0) for (const [id, item] of await repo.itemsOfInstances(ex, unknown)) itemIds.set(id, item);
  return rows.map((r) => {
    const owner = ownerOfRow(r);
    return {
      id: r.id,
      owner_kind: owner.kind,
      owner_id: owner.id,
      item_id: r.instance_id ? (itemOfInstance ?? itemIds.get(r.instance_id) ?? null) : null,
      lab_id: r.lab_id,
      file_name: r.file_name,
      media_type: r.media_type,
      size_bytes: Number(r.size_bytes),
      sha256: r.sha256,
      version: r.version,
      created_by: users.get(r.created_by)!,
      created_at: r.created_at,
      updated_by: users.get(r.updated_by)!,
      updated_at: r.updated_at,
      download_url: downloadPath(r.id),
    };
  });
}

export async function listAttachments(deps: ServiceDeps, actor: Actor, ref: OwnerRef, page: Page) {
  const owner = await resolveOwner(deps.db, actor, ref);
  const { total, rows } = await repo.pageAttachmentsOf(deps.db, owner.column, owner.id, page);
  return { total, attachments: await renderAttachments(deps.db, rows, owner.kind === 'instance' ? owner.itemId : null) };
}

export async function getAttachment(deps: ServiceDeps, actor: Actor, id: string): Promise<Attachment> {
  const row = await repo.findVisibleAttachment(deps.db, actor, id);
  if (!row) throw notFound('attachment');
  return (await renderAttachments(deps.db, [row]))[0]!;
}

export async function deleteAttachment(deps: ServiceDeps, actor: Actor, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await repo.findVisibleAttachment(trx, actor, id, { lock: true });
    if (!row) throw notFound('attachment');
    await requireWriter(trx, actor, ownerOfRow(row));
    if (!(await repo.deleteAttachment(trx, row.id))) throw notFound('attachment');
  });
}

export interface Download {
  attachment: repo.AttachmentRow;
  /** The content, one chunk at a time, read as it is sent. */
  chunks: AsyncIterable<Buffer>;
}

/**
 * The content of a visible attachment, read chunk by chunk while it is sent (one chunk in memory at a time). If a
 * replace or a delete removes the content meanwhile, the stream fails and the response is cut short (its
 * Content-Length is not reached), never completed with another file's bytes.
 */
export async function openDownload(deps: ServiceDeps, actor: Actor, id: string): Promise<Download> {
  const row = await repo.findVisibleAttachment(deps.db, actor, id);
  if (!row) throw notFound('attachment');
  const contentId = row.content_id!;
  const count = Math.ceil(Number(row.size_bytes) / CHUNK_BYTES);
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let seq = 0; seq < count; seq++) {
      const data = await repo.readChunk(deps.db, contentId, seq);
      if (!data) throw new Error(`attachment ${id}: its content was replaced or deleted while it was being sent`);
      yield data;
    }
  }
  return { attachment: row, chunks: chunks() };
}
