import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// The web application (web/, built by `npm run build` into dist/web) under /app/ on the API's port: files by their
// path, and index.html for every other /app/ path so that the browser's router shows the page (an app_url such as
// /app/inventory/items/{id} opened directly). Vite names the files under assets/ by their content's hash, so they
// are cached for a year; index.html is revalidated on every load, so a new build is picked up at once.

/** dist/web beside the compiled server (dist/server), or, when the server runs from src/ (the tests), under dist/. */
export function webRoot(): string | null {
  for (const candidate of ['../web/', '../../dist/web/']) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(`${dir}index.html`)) return dir;
  }
  return null;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** web/public: the mark as SVG, and PNG and ICO for browsers and tools that take no SVG icon. */
const FAVICONS = new Set(['favicon.svg', 'favicon.ico', 'favicon-32.png', 'apple-touch-icon.png']);
/** The application is open (sign-in happens inside it); it reads data only through the API, which checks everything. */
const open = { config: { public: true, webApp: true }, schema: { hide: true } } as const;

export async function installWebApp(app: FastifyInstance, root = webRoot()): Promise<void> {
  app.get('/', open, (_request, reply) => reply.redirect('/app/'));
  if (!root) {
    const notBuilt = (request: FastifyRequest, reply: FastifyReply) =>
      reply.code(503).send({
        message: 'The web application is not built: run npm run build',
        code: 'web_app_not_built',
        request_id: String(request.id),
      });
    app.get('/app', open, notBuilt);
    app.get('/app/*', open, notBuilt);
    return;
  }
  // Only reply.sendFile: the routes are ours, so they carry the config above (open, not counted as API calls).
  // preCompressed: the build writes name.br and name.gz beside each file (web/vite.config.ts); the one the browser
  // accepts is sent with Content-Encoding and Vary: Accept-Encoding, else the file itself.
  await app.register(fastifyStatic, { root, serve: false, cacheControl: false, etag: true, lastModified: true, preCompressed: true });
  const page = (reply: FastifyReply) => reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
  // The router ignores trailing slashes: this one route answers /app and /app/.
  app.get('/app', open, (_request, reply) => page(reply));
  app.get<{ Params: { '*': string } }>('/app/*', open, (request, reply) => {
    const path = request.params['*'];
    // sendFile keeps to the root and answers a missing file with the API's 404, never the page: a stale index.html
    // asking for an old bundle fails visibly instead of rendering HTML as script.
    if (path.startsWith('assets/')) return reply.header('Cache-Control', IMMUTABLE).sendFile(path);
    if (FAVICONS.has(path)) return reply.header('Cache-Control', 'public, max-age=86400').sendFile(path);
    return page(reply);
  });
}
