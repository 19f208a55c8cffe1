import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { asDownload } from '../../shared/download.js';
import { AppError, fieldError } from '../../shared/errors.js';
import { ref, responses, Uuid } from '../../shared/schemas.js';
import { exportLabInventory } from './export.js';
import { importLabInventory } from './import.js';
import { MAX_IMPORT_BYTES } from './rules.js';
import { CsvFileBody, ImportQuery, InventoryImportResult } from './schemas.js';

// GET and POST of a lab's inventory as CSV (docs/csv.md). The text/csv body parser lives in this plugin only, so
// every other operation still refuses CSV as the wrong media type (415); its limit is the import's, not
// BODY_LIMIT_BYTES.

const utf8 = new TextDecoder('utf-8', { fatal: true });
const MIB = MAX_IMPORT_BYTES / (1024 * 1024);
const tooLarge = () =>
  new AppError('payload_too_large', `The CSV file is larger than ${MIB} MiB (${MAX_IMPORT_BYTES} bytes): split it into several imports`);

export const inventoryCsvRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addContentTypeParser('text/csv', { parseAs: 'buffer', bodyLimit: MAX_IMPORT_BYTES }, (request, body, done) => {
    const bytes = body as Buffer;
    // Kept for the Idempotency-Key check, which hashes the bytes received (src/server/idempotency.ts).
    request.rawBody = bytes;
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      done(new AppError('unsupported_media_type', 'Send the CSV file uncompressed (no Content-Encoding)'), undefined);
      return;
    }
    const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(new AppError('unsupported_media_type', 'Send the CSV file in UTF-8'), undefined);
      return;
    }
    try {
      done(null, utf8.decode(bytes));
    } catch {
      done(fieldError('body', 'is not valid UTF-8: save the file as CSV UTF-8'), undefined);
    }
  });

  app.get(
    '/labs/:id/inventory/export',
    {
      schema: {
        operationId: 'exportLabInventory',
        tags: ['Inventory items'],
        summary: "Export a lab's inventory as CSV",
        description:
          'For anyone who sees the lab. One row per active instance in a lab that uses instances, one per item otherwise (and for an item ' +
          'without instances); columns as in docs/csv.md. Streamed; cells a spreadsheet would run as a formula start with an apostrophe.',
        params: Type.Object({ id: Uuid }),
        response: {
          200: { description: 'The CSV file (UTF-8, RFC 4180, CRLF line breaks)', content: { 'text/csv': { schema: { type: 'string' } } } },
          ...responses({}, [401, 404, 422]),
        },
      },
    },
    async (request, reply) => {
      const exp = await exportLabInventory(app.deps, request.actor, request.params.id);
      return asDownload(reply, 'text/csv; charset=utf-8', `inventory-${exp.labId}.csv`).send(
        Readable.from(exp.chunks) as unknown as string,
      );
    },
  );

  app.post(
    '/labs/:id/inventory/import',
    {
      bodyLimit: MAX_IMPORT_BYTES,
      // A declared size over the limit is refused before the upload is read, with the limit in the message.
      onRequest: async (request) => {
        if (Number(request.headers['content-length'] ?? 0) > MAX_IMPORT_BYTES) throw tooLarge();
      },
      schema: {
        operationId: 'importLabInventory',
        tags: ['Inventory items'],
        summary: "Import a lab's inventory from CSV",
        description:
          'For anyone who sees the lab. The body is the CSV file (text/csv, UTF-8, a header row; docs/csv.md has the columns and ' +
          `rules; at most ${MIB} MiB and 100,000 rows). With dry_run=true: 200 with every problem by line, nothing changed. Otherwise ` +
          'all rows or none: any problem is 422 with the same list (import_errors); a good file creates its items, instances and ' +
          'locations in one transaction and emits one inventory-item.created per item. One import (dry runs included) per lab at a time: ' +
          'another is 409 import_in_progress; beyond IMPORT_CONCURRENCY on the server, 503 service_unavailable; both with Retry-After.',
        params: Type.Object({ id: Uuid }),
        querystring: ImportQuery,
        consumes: ['text/csv'],
        body: CsvFileBody,
        // 409: an import into this lab is running (import_in_progress, Retry-After); 503: IMPORT_CONCURRENCY imports are
        // running on this server, or on SQLite another write held the database 5 s (service_unavailable, Retry-After).
        response: responses({ 200: ref(InventoryImportResult) }, [401, 404, 409, 413, 415, 422, 503]),
      },
    },
    // A real run with any problem throws (422 with the list); a dry run answers the list.
    async (request) =>
      importLabInventory(app.deps, request.actor, request.params.id, request.body, { dryRun: request.query.dry_run === true }),
  );
};
