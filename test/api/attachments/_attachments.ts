// Shared by the attachment tests (no tests in here): small real files of the allowed types, and the calls.
import { createHash } from 'node:crypto';
import type { Harness } from '../../helpers/harness.js';

/** A minimal PDF: what matters to the type check is its first bytes (%PDF-). */
export function pdf(text = 'Certificate of analysis', padTo = 0): Buffer {
  const body = `%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${text}\n`;
  const pad = padTo > body.length ? '%'.repeat(padTo - body.length - 7) : '';
  return Buffer.from(`${body}${pad}\n%%EOF\n`, 'latin1');
}

/** A 1×1 PNG. */
export const png = (): Buffer =>
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

export type Owner =
  | { kind: 'item'; itemId: string }
  | { kind: 'instance'; itemId: string; instanceId: string }
  | { kind: 'type'; typeId: string };

export const ownerPath = (o: Owner): string =>
  o.kind === 'item'
    ? `/inventory-items/${o.itemId}/attachments`
    : o.kind === 'instance'
      ? `/inventory-items/${o.itemId}/instances/${o.instanceId}/attachments`
      : `/types/${o.typeId}/attachments`;

export function upload(
  h: Harness,
  token: string | null,
  owner: Owner,
  file: Buffer,
  name = 'file.pdf',
  headers: Record<string, string> = {},
) {
  return h.call(token, {
    method: 'POST',
    url: `${ownerPath(owner)}?name=${encodeURIComponent(name)}`,
    headers: { 'content-type': 'application/octet-stream', ...headers },
    payload: file,
  });
}

export const list = (h: Harness, token: string | null, owner: Owner) =>
  h.call(token, { method: 'GET', url: `${ownerPath(owner)}?per_page=100` });

export const download = (h: Harness, token: string | null, id: string, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'GET', url: `/attachments/${id}/content`, headers });

export function replace(h: Harness, token: string | null, id: string, file: Buffer, name?: string, headers: Record<string, string> = {}) {
  return h.call(token, {
    method: 'PUT',
    url: `/attachments/${id}/content${name === undefined ? '' : `?name=${encodeURIComponent(name)}`}`,
    headers: { 'content-type': 'application/octet-stream', ...headers },
    payload: file,
  });
}

export const remove = (h: Harness, token: string | null, id: string) => h.call(token, { method: 'DELETE', url: `/attachments/${id}` });

/** The fixture's owners in org `o`: the migrated lab's item, its first instance, and its type. */
export const ownersOf = (o: Harness['a']): { item: Owner; instance: Owner; type: Owner } => ({
  item: { kind: 'item', itemId: o.migratedLab.itemId },
  instance: { kind: 'instance', itemId: o.migratedLab.itemId, instanceId: o.migratedLab.instanceIds[0]! },
  type: { kind: 'type', typeId: o.migratedLab.typeId },
});

/** Every attachment row and how many chunks there are: what a refused request must leave as it was. */
export async function stored(h: Harness) {
  const db = h.deps.db;
  const [rows, chunks] = await Promise.all([
    db.selectFrom('attachments').selectAll().orderBy('id').execute(),
    db
      .selectFrom('attachment_chunks')
      .select((e) => e.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, chunks: Number(chunks.n) };
}
