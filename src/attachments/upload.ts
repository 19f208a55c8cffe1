import { createHash } from 'node:crypto';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';
import * as repo from './repository.js';
import { CHUNK_BYTES, cleanFileName, sizeText, sniffMediaType } from './rules.js';
import type { Attachment } from './schemas.js';
import { type OwnerRef, ownerOfRow, renderAttachments, requireWriter, resolveOwner } from './service.js';

// Uploads and replaces, streamed (docs/attachments.md, "Storage"). The body is read as it arrives and written
// 256 KiB a row, each chunk in its own short statement, so neither the server nor a database transaction ever holds
// a whole file, and on SQLite no write lock is held while a slow client sends. The chunks are invisible until one
// short transaction at the end points the attachment at them; that transaction is the request's work (it marks an
// Idempotency-Key claim, src/server/idempotency.ts). The staging writes go through a connection of their own
// (`db.connection()`), outside the claim's bookkeeping: a failed upload deletes what it staged and has changed
// nothing, so a retry with the same key may still do the work. What a dead process staged is swept later.

/** Staged rows older than this belong to an upload that can no longer finish (HTTP_REQUEST_TIMEOUT is far shorter). */
const UNFINISHED_AFTER_MS = 60 * 60 * 1000;
/** How often a process sweeps them, at most (at the start of an upload). */
const SWEEP_EVERY_MS = 10 * 60 * 1000;
let lastSweep = 0;

export interface UploadInput {
  /** The name as sent (cleaned here). */
  name: string | undefined;
  /** The request body, as it arrives. */
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  /** The Content-Length sent, if any: over the limit is refused before anything is read. */
  declaredBytes: number | null;
}

const staging = <T>(deps: ServiceDeps, fn: (ex: Executor) => Promise<T>): Promise<T> => deps.db.connection().execute(fn);

function checkName(raw: string | undefined): string {
  const name = cleanFileName(raw ?? '');
  if (name === null)
    throw fieldError('name', 'must name the file (a name left with no characters once folders and control characters are removed)');
  return name;
}

function tooLarge(limit: number): AppError {
  return new AppError(
    'payload_too_large',
    `The file is larger than ${sizeText(limit)} (${limit} bytes), the largest attachment this server takes`,
  );
}

async function sweep(deps: ServiceDeps): Promise<void> {
  if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = Date.now();
  await staging(deps, (ex) => repo.sweepUnfinished(ex, new Date(Date.now() - UNFINISHED_AFTER_MS).toISOString()));
}

interface Received {
  contentId: string;
  size: number;
  sha256: string;
  mediaType: string;
}

/**
 * Reads `body` into chunks under a new content id. `begin` runs once the content's type is known and allowed, before
 * the first chunk is written (a new attachment's row is inserted there). Throws 413 past the limit, 415 for a type
 * not allowed (nothing written), 422 for an empty file.
 */
async function receive(
  deps: ServiceDeps,
  target: { attachmentId: string; contentId: string },
  input: UploadInput,
  begin: (mediaType: string) => Promise<void>,
): Promise<Received> {
  const limit = deps.config.attachmentMaxBytes;
  const { attachmentId, contentId } = target;
  const hash = createHash('sha256');
  const pending: Buffer[] = [];
  let pendingBytes = 0;
  let size = 0;
  let seq = 0;
  let mediaType = '';

  const flush = async (chunk: Buffer) => {
    if (seq === 0) {
      const sniffed = await sniffMediaType(chunk);
      if (sniffed === null || !deps.config.attachmentTypes.includes(sniffed)) {
        throw new AppError(
          'unsupported_media_type',
          `${sniffed ? `The file is ${sniffed}` : 'The file is of no type recognised from its content'}; ` +
            `attachments may be ${deps.config.attachmentTypes.join(', ')} (read from the content, not the name)`,
        );
      }
      mediaType = sniffed;
      await begin(mediaType);
    }
    const row = { attachment_id: attachmentId, content_id: contentId, seq: seq++, created_at: nowIso(), data: chunk };
    await staging(deps, (ex) => repo.insertChunk(ex, row));
  };

  for await (const piece of input.body) {
    size += piece.byteLength;
    if (size > limit) throw tooLarge(limit);
    hash.update(piece);
    pending.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
    pendingBytes += piece.byteLength;
    while (pendingBytes >= CHUNK_BYTES) {
      const all = Buffer.concat(pending, pendingBytes);
      pending.length = 0;
      await flush(all.subarray(0, CHUNK_BYTES));
      pendingBytes = all.length - CHUNK_BYTES;
      if (pendingBytes > 0) pending.push(all.subarray(CHUNK_BYTES));
    }
  }
  if (size === 0) throw fieldError('body', "is empty: send the file's bytes as the request body");
  if (pendingBytes > 0) await flush(Buffer.concat(pending, pendingBytes));
  return { contentId, size, sha256: hash.digest('hex'), mediaType };
}

function checkDeclared(deps: ServiceDeps, declared: number | null): void {
  if (declared !== null && declared > deps.config.attachmentMaxBytes) throw tooLarge(deps.config.attachmentMaxBytes);
}

/** POST …/attachments: a new document of a visible owner, from the request body; 201 with it. */
export async function uploadAttachment(deps: ServiceDeps, actor: Actor, ref: OwnerRef, input: UploadInput): Promise<Attachment> {
  const fileName = checkName(input.name);
  const owner = await resolveOwner(deps.db, actor, ref);
  await requireWriter(deps.db, actor, owner);
  checkDeclared(deps, input.declaredBytes);
  await sweep(deps);
  const id = newId();
  let inserted = false;
  try {
    const got = await receive(deps, { attachmentId: id, contentId: newId() }, input, async (mediaType) => {
      const now = nowIso();
      await staging(deps, (ex) =>
        repo.insertAttachment(ex, {
          id,
          lab_id: owner.labId,
          item_id: owner.kind === 'item' ? owner.id : null,
          instance_id: owner.kind === 'instance' ? owner.id : null,
          type_id: owner.kind === 'type' ? owner.id : null,
          file_name: fileName,
          media_type: mediaType,
          size_bytes: 0,
          sha256: '',
          content_id: null,
          version: 0,
          created_by: actor.userId,
          created_at: now,
          updated_by: actor.userId,
          updated_at: now,
        }),
      );
      inserted = true;
    });
    return await deps.db.transaction().execute(async (trx) => {
      // The owner may have been deleted meanwhile (its documents with it) or become invisible: then 404.
      await resolveOwner(trx, actor, ref);
      const now = nowIso();
      const set = { content_id: got.contentId, file_name: fileName, media_type: got.mediaType, size_bytes: got.size, sha256: got.sha256 };
      if (!(await repo.setContent(trx, id, { ...set, version: 1, updated_by: actor.userId, updated_at: now })))
        throw notFound('attachment');
      const row = (await repo.findVisibleAttachment(trx, actor, id))!;
      return (await renderAttachments(trx, [row], owner.kind === 'instance' ? owner.itemId : null))[0]!;
    });
  } catch (err) {
    // Best effort: what is left is swept later.
    if (inserted) await staging(deps, (ex) => repo.deleteAttachment(ex, id)).catch(() => undefined);
    throw err;
  }
}

/** PUT /attachments/{id}/content: new content for the same attachment (same id, version + 1, who and when). */
export async function replaceAttachmentContent(deps: ServiceDeps, actor: Actor, id: string, input: UploadInput): Promise<Attachment> {
  const row = await repo.findVisibleAttachment(deps.db, actor, id);
  if (!row) throw notFound('attachment');
  const fileName = input.name === undefined ? row.file_name : checkName(input.name);
  await requireWriter(deps.db, actor, ownerOfRow(row));
  checkDeclared(deps, input.declaredBytes);
  await sweep(deps);
  const contentId = newId();
  let committed = false;
  try {
    const got = await receive(deps, { attachmentId: id, contentId }, input, async () => undefined).catch((err: unknown) => {
      throw isForeignKeyViolation(err) ? notFound('attachment') : err;
    });
    const result = await deps.db.transaction().execute(async (trx) => {
      const current = await repo.findVisibleAttachment(trx, actor, id, { lock: true });
      if (!current) throw notFound('attachment');
      const now = nowIso();
      await repo.setContent(trx, id, {
        content_id: got.contentId,
        file_name: fileName,
        media_type: got.mediaType,
        size_bytes: got.size,
        sha256: got.sha256,
        version: current.version + 1,
        updated_by: actor.userId,
        updated_at: now,
      });
      await repo.deleteChunksOf(trx, current.content_id!);
      return (await renderAttachments(trx, [(await repo.findVisibleAttachment(trx, actor, id))!]))[0]!;
    });
    committed = true;
    return result;
  } finally {
    if (!committed) await staging(deps, (ex) => repo.deleteChunksOf(ex, contentId)).catch(() => undefined);
  }
}

/** The attachment was deleted while its new content was arriving (its chunks reference it). */
function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
