import { describe, expect, it } from 'vitest';
import { useHarness } from '../helpers/use-harness.js';

// Issue 22, item 13: browser security headers on every answer (src/server/security-headers.ts): the web app, the
// API's JSON (answers and errors), the reference at /docs and the OpenAPI document. The browser journeys
// (test/browser/) fail on any console error, so a policy the app does not work under shows there.

const h = useHarness();

/** The CSP's directives by name. */
function directives(csp: unknown): Map<string, string[]> {
  expect(typeof csp, 'a Content-Security-Policy header').toBe('string');
  const out = new Map<string, string[]>();
  for (const part of String(csp).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name, values);
  }
  return out;
}

describe('security headers', () => {
  it.each([
    ['the web app', 'GET', '/app/', null],
    ['an API answer', 'GET', '/labs', 'token'],
    ['an API error', 'GET', '/labs', null],
    ['an unknown path', 'GET', '/no-such-thing', null],
    ['the health check', 'GET', '/healthz', null],
    ['the OpenAPI document', 'GET', '/openapi.json', null],
    ['a refused body', 'POST', '/types', 'token'],
  ] as const)(
    '%s: CSP with frame-ancestors none and scripts from self only, nosniff, Referrer-Policy',
    async (_name, method, url, auth) => {
      const res = await h.call(auth ? h.a.admin.token : null, {
        method,
        url,
        ...(method === 'POST' ? { payload: '{"name":1,"name":2}', headers: { 'content-type': 'application/json' } } : {}),
      });
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(csp.has('upgrade-insecure-requests'), 'plain-HTTP deployments (the demo) must keep working').toBe(false);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      // same-origin: one-time links in the path never reach other sites, and same-origin POSTs keep their Origin.
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
    },
  );

  it("helmet's whole set, worked out once, on an answer and on the next one alike; no HSTS", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await h.call(h.a.admin.token, { method: 'GET', url: '/labs' });
      expect(res.statusCode).toBe(200);
      expect(res.headers).toMatchObject({
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'origin-agent-cluster': '?1',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
      });
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('the reference at /docs has them too', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('swagger-ui-bundle.js');
    expect(directives(res.headers['content-security-policy']).get('frame-ancestors')).toEqual(["'none'"]);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
