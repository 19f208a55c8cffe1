import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { fieldError } from '../shared/errors.js';

// Text the two databases cannot store alike is refused everywhere (422), so a 201 answer, its event and a later
// GET always agree and no query fails on it:
// - U+0000: PostgreSQL text cannot hold it, and no lab inventory value needs it.
// - lone UTF-16 surrogates (a JSON "\ud800" escape): not Unicode text; PostgreSQL stores U+FFFD while SQLite keeps
//   the lone unit, so the stored value differed from the answer.
// - percent-escapes in the query string that are not UTF-8 (%FF): the query parser kept them undecoded or
//   replaced. Invalid UTF-8 in a JSON body is refused by its parser (src/server/json-body.ts); in the path the
//   router already refuses it (400 invalid_url).
// The walk is iterative: it must never depend on how deeply a body nests.
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is exactly what this refuses.
const UNSTORABLE = /\u0000|\p{Surrogate}/u;

function problemOf(text: string): string {
  return text.includes('\u0000')
    ? 'must not contain the NUL character (U+0000)'
    : 'must not contain lone UTF-16 surrogates (it is not Unicode text)';
}

function findUnstorable(root: unknown, rootName: string): { path: string; text: string } | null {
  const stack: [unknown, string][] = [[root, rootName]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return { path, text: value };
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push([value[i], `${path}[${i}]`]);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (UNSTORABLE.test(k)) return { path: path ? `${path}.${k}` : k, text: k };
        stack.push([v, path ? `${path}.${k}` : k]);
      }
    }
  }
  return null;
}

/** The bytes a percent-encoded URL component stands for (Node has refused raw bytes above 0x7e already). */
function percentBytes(component: string): Buffer {
  return Buffer.from(
    component.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
}

/** The first query parameter whose escapes are not UTF-8, named as well as it can be ('query' if the name is the bad part). */
function nonUtf8QueryParam(rawUrl: string): string | null {
  const start = rawUrl.indexOf('?');
  if (start === -1) return null;
  const query = rawUrl.slice(start + 1);
  if (!/%[89a-f]/i.test(query)) return null; // only escapes of bytes above 0x7f can be invalid UTF-8
  for (const pair of query.split('&')) {
    if (isUtf8(percentBytes(pair))) continue;
    const name = pair.split('=')[0]!;
    const nameBytes = percentBytes(name);
    return name && isUtf8(nameBytes) ? nameBytes.toString('utf8').replace(/\+/g, ' ') : 'query';
  }
  return null;
}

export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const badParam = nonUtf8QueryParam(request.raw.url ?? request.url);
    if (badParam !== null) throw fieldError(badParam, 'is not valid UTF-8 once percent-decoded');
    const found = findUnstorable(request.params, '') ?? findUnstorable(request.query, '') ?? findUnstorable(request.body, '');
    if (found !== null) throw fieldError(found.path || 'body', problemOf(found.text));
  });
}
