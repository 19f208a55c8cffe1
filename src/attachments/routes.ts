import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { dispositionOf } from '../shared/download.js';
import { AppError } from '../shared/errors.js';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { CHUNK_BYTES } from './rules.js';
import { Attachment, UploadQuery } from './schemas.js';
import { getAttachment, listAttachments, type OwnerRef, openDownload, deleteAttachment as remove } from './service.js';
import { replaceAttachmentContent, type UploadInput, uploadAttachment } from './upload.js';

// Attachments (docs/attachments.md): documents of an item, an instance or a type, on their own endpoints.
//
// An upload's body is the file's bytes, as they are (any Content-Type: the type is read from the content), with the
// name in `?name=`. This plugin's only body parser hands the request stream on unread, so the service reads it as it
// arrives (src/attachments/upload.ts); Fastify's JSON parser and BODY_LIMIT_BYTES do not apply here,
// ATTACHMENT_MAX_BYTES does. The Idempotency-Key check hashes the method, the URL (the name included) and the
// declared length and type, since the bytes are only read after the key is claimed (src/server/idempotency.ts).

const Binary = Type.String({ format: 'binary', description: "The file's bytes, as they are." });
const CONSUMES = ['application/octet-stream', 'application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const UPLOAD_ERRORS = [400, 401, 403, 404, 413, 415, 422];

const uploadOf = (request: FastifyRequest, name: string | undefined): UploadInput => {
  const declared = request.headers['content-length'];
  return {
    name,
    body: request.raw,
    declaredBytes: declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : null,
  };
};

const UPLOAD_NOTE =
  "The body is the file's bytes (send any Content-Type; application/octet-stream will do), the name in `name`. " +
  'The type is read from the content: beyond the allowed types (ATTACHMENT_TYPES; PDF and PNG, JPEG, GIF, WebP images by default) 415. ' +
  'Larger than ATTACHMENT_MAX_BYTES (25 MiB by default): 413, refused before reading when Content-Length says so. ' +
  'Streamed into the database 256 KiB at a time.';

export const attachmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request, _payload, done) => {
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      done(new AppError('unsupported_media_type', 'Send the file uncompressed (no Content-Encoding)'), undefined);
      return;
    }
    request.rawBody = Buffer.from(`${request.headers['content-type'] ?? ''}\n${request.headers['content-length'] ?? ''}`);
    // The stream stays unread here: the route's service reads request.raw.
    done(null, '');
  });
  // A refusal sent before the body was read (413, 415, 404) closes the connection rather than reading the rest.
  app.addHook('onSend', async (request, reply, payload) => {
    if ((request.method === 'POST' || request.method === 'PUT') && !request.raw.readableEnded && reply.statusCode >= 400)
      reply.header('Connection', 'close');
    return payload;
  });

  const owners: {
    path: string;
    what: string;
    params: ReturnType<typeof Type.Object>;
    ref: (p: Record<string, string>) => OwnerRef;
    op: string;
  }[] = [
    {
      path: '/inventory-items/:id/attachments',
      what: 'an inventory item',
      params: Type.Object({ id: Uuid }),
      ref: (p) => ({ kind: 'item', itemId: p.id! }),
      op: 'InventoryItem',
    },
    {
      path: '/inventory-items/:itemId/instances/:itemInstanceId/attachments',
      what: "an instance (container) of an item, such as its lot's certificate of analysis",
      params: Type.Object({ itemId: Uuid, itemInstanceId: Uuid }),
      ref: (p) => ({ kind: 'instance', itemId: p.itemId!, instanceId: p.itemInstanceId! }),
      op: 'InventoryItemInstance',
    },
    {
      path: '/types/:id/attachments',
      what: 'a type, such as the safety data sheet for every bottle of it',
      params: Type.Object({ id: Uuid }),
      ref: (p) => ({ kind: 'type', typeId: p.id! }),
      op: 'Type',
    },
  ];

  for (const o of owners) {
    const writers = o.op === 'Type' ? "Org admins and the lab's managers only (403 otherwise)." : 'Anyone who sees the lab.';
    app.get(
      o.path,
      {
        schema: {
          operationId: `list${o.op}Attachments`,
          tags: ['Attachments'],
          summary: `List the documents of ${o.what.split(',')[0]}`,
          description: `Oldest first. For anyone who sees it (404 otherwise).`,
          params: o.params,
          querystring: Type.Object(PageQuery),
          response: responses({ 200: Type.Array(ref(Attachment)) }, [401, 404, 422]),
        },
      },
      async (request, reply) => {
        const page = pageOf(request.query);
        const { total, attachments } = await listAttachments(
          app.deps,
          request.actor,
          o.ref(request.params as Record<string, string>),
          page,
        );
        setPageHeaders(request, reply, page, total);
        return attachments;
      },
    );
    app.post(
      o.path,
      {
        schema: {
          operationId: `upload${o.op}Attachment`,
          tags: ['Attachments'],
          summary: `Attach a document to ${o.what.split(',')[0]}`,
          description: `A document of ${o.what}. ${writers} ${UPLOAD_NOTE}`,
          params: o.params,
          querystring: UploadQuery,
          consumes: CONSUMES,
          body: Binary,
          response: responses({ 201: ref(Attachment) }, UPLOAD_ERRORS),
        },
      },
      async (request, reply) => {
        const owner = o.ref(request.params as Record<string, string>);
        const attachment = await uploadAttachment(app.deps, request.actor, owner, uploadOf(request, request.query.name));
        return reply.code(201).header('Location', `/attachments/${attachment.id}`).send(attachment);
      },
    );
  }

  const ById = Type.Object({ id: Uuid });

  app.get(
    '/attachments/:id',
    {
      schema: {
        operationId: 'getAttachment',
        tags: ['Attachments'],
        summary: 'Get an attachment',
        description: 'What describes it (who added it and when, size, type). For anyone who sees its owner (404 otherwise).',
        params: ById,
        response: responses({ 200: ref(Attachment) }, [401, 404, 422]),
      },
    },
    async (request) => getAttachment(app.deps, request.actor, request.params.id),
  );

  app.get(
    '/attachments/:id/content',
    {
      schema: {
        operationId: 'downloadAttachment',
        tags: ['Attachments'],
        summary: 'Download an attachment',
        description:
          'The content as a download (Content-Disposition: attachment with the name, X-Content-Type-Options: nosniff, the type read ' +
          'from the content), streamed from the database a chunk at a time. ETag is the SHA-256; If-None-Match with it answers 304. ' +
          'For anyone who sees its owner (404 otherwise).',
        params: ById,
        response: {
          200: { description: 'The file', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
          304: { description: 'Not modified (If-None-Match matched)', type: 'null' },
          ...responses({}, [401, 404, 422]),
        },
      },
    },
    async (request, reply) => {
      const { attachment: a, chunks } = await openDownload(app.deps, request.actor, request.params.id);
      const etag = `"${a.sha256}"`;
      reply
        .header('ETag', etag)
        .header('Cache-Control', 'private, no-cache')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Content-Disposition', dispositionOf(a.file_name));
      if (request.headers['if-none-match']?.split(',').some((t) => t.trim() === etag)) return reply.code(304).send(null);
      return reply
        .type(a.media_type)
        .header('Content-Length', String(a.size_bytes))
        .send(Readable.from(chunks, { objectMode: false, highWaterMark: CHUNK_BYTES }) as unknown as string);
    },
  );

  app.put(
    '/attachments/:id/content',
    {
      schema: {
        operationId: 'replaceAttachmentContent',
        tags: ['Attachments'],
        summary: 'Replace the content of an attachment',
        description:
          'The same attachment (same id) with new content: version one more, updated_by and updated_at the replacer and now; the old ' +
          'content is deleted. Without `name` the name stays. Who may: as for adding one to its owner. ' +
          UPLOAD_NOTE,
        params: ById,
        querystring: Type.Partial(UploadQuery),
        consumes: CONSUMES,
        body: Binary,
        response: responses({ 200: ref(Attachment) }, UPLOAD_ERRORS),
      },
    },
    async (request) => replaceAttachmentContent(app.deps, request.actor, request.params.id, uploadOf(request, request.query.name)),
  );

  app.delete(
    '/attachments/:id',
    {
      schema: {
        operationId: 'deleteAttachment',
        tags: ['Attachments'],
        summary: 'Delete an attachment',
        description: 'It and its content. Who may: as for adding one to its owner (403 otherwise); 404 for one the caller does not see.',
        params: ById,
        response: responses({ 204: Type.Null() }, [401, 403, 404, 422]),
      },
    },
    async (request, reply) => {
      await remove(app.deps, request.actor, request.params.id);
      return reply.code(204).send();
    },
  );
};
