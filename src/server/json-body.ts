import type { FastifyInstance } from 'fastify';
import { AppError, fieldError } from '../shared/errors.js';

// The API's one body parser (application/json), replacing Fastify's, which decodes bytes as UTF-8 leniently
// (an invalid byte became U+FFFD and was stored) and ignores Content-Encoding (a gzip body was parsed as text).
// Here: only identity encoding and UTF-8 are accepted (415 otherwise), invalid UTF-8 is 422, nesting is bounded
// before anything walks the value (JSON.stringify or a validator recursing over 5,000 levels overflowed the
// stack, a 500), a key repeated in one object is 422 (JSON.parse kept the last one silently), and the raw bytes are kept for the Idempotency-Key check (src/server/idempotency.ts), which
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

interface Level {
  /** True for an object, false for an array. */
  object: boolean;
  /** The keys of this object before its current one (made at its second key: most objects here are small). */
  keys: Set<string> | null;
  /** The object's current key, or the array's current index. */
  at: string | number;
  /** An object that expects a key next (after `{` or `,`). */
  expectKey: boolean;
  /** The keys of this object read so far. */
  count: number;
}

/**
 * The path of the first key that appears twice in one object (`price.amount`, `lines[0].name`), or null. JSON.parse
 * keeps the last value silently. `text` is valid JSON (parsed first), so one pass suffices, jumping from quote to
 * quote inside strings; a key with an escape is decoded, as `"n\u0061me"` is `"name"`.
 */
export function findDuplicateKey(text: string): string | null {
  const stack: Level[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      let end = text.indexOf('"', i + 1);
      // A quote after an odd number of backslashes is part of the string.
      for (;;) {
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      i = end;
      const top = stack[stack.length - 1];
      if (top?.object && top.expectKey) {
        const raw = text.slice(start + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (top.count++ > 0) {
          top.keys ??= new Set();
          top.keys.add(top.at as string);
        }
        top.at = key;
        top.expectKey = false;
        if (top.keys?.has(key)) return pathOf(stack);
      }
    } else if (c === 0x7b) {
      stack.push({ object: true, keys: null, at: '', expectKey: true, count: 0 });
    } else if (c === 0x5b) {
      stack.push({ object: false, keys: null, at: 0, expectKey: false, count: 0 });
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
    } else if (c === 0x2c) {
      const top = stack[stack.length - 1]!;
      if (top.object) top.expectKey = true;
      else top.at = (top.at as number) + 1;
    }
  }
  return null;
}

const pathOf = (stack: Level[]): string =>
  stack.reduce((path, level) => (level.object ? (path ? `${path}.${level.at}` : String(level.at)) : `${path}[${level.at}]`), '');

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
    parse(request, text, (err, value) => {
      const duplicate = err ? null : findDuplicateKey(text);
      if (duplicate !== null) done(fieldError(duplicate, 'appears more than once in the same object'), undefined);
      else done(err, value);
    });
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
