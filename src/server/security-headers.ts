import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

// Browser security headers on every answer (helmet), the web app's pages, the reference at /docs and the API's JSON
// alike, set in the first onRequest hook so that errors raised by later hooks carry them too. The policy is the
// same for every answer, so helmet works the headers out once, at start: @fastify/helmet built helmet's middleware
// again for every request, parsing the policy each time (~5 % of a GET's CPU, docs/performance.md).
//
// The policy is the one the web app (web/, built into dist/web) and Swagger UI (/docs) work under, which the
// browser journeys check (test/browser/, any console error fails them): scripts only from this origin (Vite emits
// no inline script), styles from this origin and inline (Mantine sets style attributes and injects its CSS
// variables in a <style> element; so does Swagger UI), images also as data: URLs (icons). No page may be framed.
//
// Left out on purpose: upgrade-insecure-requests and Strict-Transport-Security, which would break or pin plain-HTTP
// deployments (the demo, a service on a private network); HTTPS is the deployment's choice (README.md). The
// referrer is sent within this origin only ('same-origin'): one-time links carry their secret in the path
// (docs/auth.md), and 'no-referrer' would make the browser send `Origin: null` on our own POSTs, which sign-in
// and the link routes refuse as foreign (src/accounts/link-routes.ts refuseForeignOrigin).

export const CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'connect-src': ["'self'"],
    'font-src': ["'self'", 'data:'],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'img-src': ["'self'", 'data:'],
    'object-src': ["'none'"],
    // Compiling WebAssembly (never evaluating script): the camera's barcode decoder (web/src/scan/detector.ts).
    'script-src': ["'self'", "'wasm-unsafe-eval'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
  },
};

const OPTIONS = {
  contentSecurityPolicy: CONTENT_SECURITY_POLICY,
  referrerPolicy: { policy: 'same-origin' },
  frameguard: { action: 'deny' },
  strictTransportSecurity: false,
} as const;

/** The headers helmet sets with these options (it reads nothing of the request for a policy without nonces). */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(OPTIONS)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

export async function installSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = securityHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
