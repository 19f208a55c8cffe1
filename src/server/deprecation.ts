import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../shared/config.js';
import { notFound } from '../shared/errors.js';

// Deprecated operations (docs/product.md §13, docs/api.md "Deprecation"): a route opts in with
// `config: { deprecation: { since, sunset? } }` and every answer it gives, errors included, carries RFC 9745's
// `Deprecation: @<unix seconds>`, RFC 8594's `Sunset: <HTTP date>` once a sunset date is set, and a
// `Link: <…/changelog>; rel="deprecation"` to the changelog entry that explains it. The OpenAPI document marks the
// operation `deprecated` (src/server/openapi.ts). GET /changelog serves docs/changelog.md; /docs links to it.

export interface Deprecation {
  /** The day (YYYY-MM-DD, UTC) of the changelog entry that deprecated the operation. */
  since: string;
  /** The day (YYYY-MM-DD, UTC) after which the operation may stop working; set once decided. */
  sunset?: string;
}

const seconds = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 1000;

/** The headers of a deprecated operation's answers. */
export function deprecationHeaders(d: Deprecation, appUrl: string): Record<string, string> {
  const headers: Record<string, string> = {
    Deprecation: `@${seconds(d.since)}`,
    Link: `<${appUrl}/changelog>; rel="deprecation"; type="text/markdown"`,
  };
  if (d.sunset) headers.Sunset = new Date(seconds(d.sunset) * 1000).toUTCString();
  return headers;
}

/** docs/changelog.md from the repository root, whether the server runs from src/server or dist/server. */
const CHANGELOG = fileURLToPath(new URL('../../docs/changelog.md', import.meta.url));

export function installDeprecation(app: FastifyInstance, config: Config): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const d = request.routeOptions.config?.deprecation;
    if (d) reply.headers(deprecationHeaders(d, config.appUrl));
    return payload;
  });

  app.get('/changelog', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    const text = await readFile(CHANGELOG, 'utf8').catch(() => null);
    if (text === null) throw notFound('changelog');
    return reply.type('text/markdown; charset=utf-8').send(text);
  });
}
