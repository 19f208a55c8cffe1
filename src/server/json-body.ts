import type { FastifyInstance } from 'fastify';
import { AppError, fieldError } from '../shared/errors.js';

// The API's one body parser (application/json), replacing Fastify's, which decodes bytes as UTF-8 leniently
// (an invalid byte became U+FFFD and was stored) and ignores Content-Encoding (a gzip body was parsed as text).
// Here: only identity encoding and UTF-8 are accepted (415 otherwise), invalid UTF-8 is 422, nesting is bounded
// before anything walks the value (JSON.stringify or a validator recursing over 5,000 levels overflowed the
// stack, a 500), and the raw bytes are kept for the Idempotency-Key check (src/server/idempotency.ts), which
// hashes them instead of re-serializing the parsed value.

/** Request bodies of this API nest 3 levels at most; 32 leaves room and keeps every walk over a body shallow. */
export const MAX_JSON_DEPTH = 32;

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body's bytes as received (empty when there is none), set by the JSON parser. */
    rawBody?: Buffer;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** How deeply `text` nests arrays and objects, stopping as soon as it exceeds `limit` (no recursion). */
export function exceedsDepth(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

const isEmptyObject = (value: unknown): boolean =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;

export function installJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    request.rawBody = bytes;
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      done(
        new AppError('unsupported_media_type', `Content-Encoding ${encoding.slice(0, 40)} is not supported: send the body uncompressed`),
        undefined,
      );
      return;
    }
    const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(new AppError('unsupported_media_type', 'Send the request body as application/json in UTF-8'), undefined);
      return;
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      done(fieldError('body', 'is not valid UTF-8'), undefined);
      return;
    }
    if (exceedsDepth(text, MAX_JSON_DEPTH)) {
      done(fieldError('body', `must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`), undefined);
      return;
    }
    parse(request, text, done);
  });

  // An operation that declares no body takes none: a body sent anyway was silently ignored, so a client could
  // believe it had set something. `{}` stays accepted, as many clients send it with every POST. A generic rule on
  // the route's schema, so a new operation without a body gets it too. Unknown routes keep their 404.
  app.addHook('preValidation', async (request) => {
    if (!request.routeOptions.url || request.routeOptions.schema?.body !== undefined) return;
    if (request.body === undefined || isEmptyObject(request.body)) return;
    throw fieldError('body', 'this operation takes no request body; send none (or {})');
  });
}
