import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webRoot } from '../../../src/server/web-app.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

// GET /app/…: the web application's files (src/server/web-app.ts). `npm test` builds dist/web before the tests.
let h: Harness;
const root = webRoot();
const asset = root ? /src="\/app\/(assets\/[^"]+\.js)"/.exec(readFileSync(`${root}index.html`, 'utf8'))![1]! : '';
beforeAll(async () => {
  if (!root) throw new Error('dist/web is missing: npm run build');
  h = await startHarness();
});
afterAll(() => h?.close());

const get = (url: string) => h.app.inject({ method: 'GET', url });

describe('the web application under /app/', () => {
  it('/ redirects to /app/, which is the page; so is every path the router knows or not', async () => {
    const home = await get('/');
    expect(home.statusCode).toBe(302);
    expect(home.headers.location).toBe('/app/');
    for (const path of ['/app', '/app/', '/app/inventory/items/0190a6f2-1111-7222-8333-444455556666', '/app/sign-in?next=%2F']) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('serves the hashed bundle as immutable, and a missing asset as the API 404, never the page', async () => {
    const js = await get(`/app/${asset}`);
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toContain('javascript');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await get('/app/assets/index-doesnotexist.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('not_found');
  });

  it('sends the brotli or gzip file the build wrote beside each asset when the browser accepts it, else the file', async () => {
    const plain = readFileSync(`${root}${asset}`);
    const as = (encoding: string) => h.app.inject({ method: 'GET', url: `/app/${asset}`, headers: { 'accept-encoding': encoding } });
    const br = await as('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).equals(plain)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(plain.length / 2);
    const gz = await as('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(plain)).toBe(true);
    const none = await as('identity');
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.rawPayload.equals(plain)).toBe(true);
    const page = await h.app.inject({ method: 'GET', url: '/app/inventory', headers: { 'accept-encoding': 'br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toContain('text/html');
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<div id="root">');
    for (const icon of ['favicon.svg', 'favicon.ico', 'favicon-32.png']) expect((await get(`/app/${icon}`)).statusCode, icon).toBe(200);
  });

  it('never leaves dist/web: traversal gets the page, a 403 or a 404, not a file from elsewhere', async () => {
    for (const path of [
      '/app/assets/../../package.json',
      '/app/assets/%2e%2e/%2e%2e/package.json',
      '/app/../package.json',
      '/app/assets/..%2F..%2Fpackage.json',
    ]) {
      const res = await get(path);
      expect(res.body, path).not.toContain('"name": "labstock"');
      // 403: the file server itself refuses a path that would leave its root.
      expect([200, 403, 404], path).toContain(res.statusCode);
    }
  });

  it("needs no token and does not spend the address's budget of unauthenticated calls; the API still does", async () => {
    const limited = await startHarness({ RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '3' });
    try {
      const call = (url: string) => limited.app.inject({ method: 'GET', url });
      for (let i = 0; i < 6; i++) expect((await call(`/app/${asset}`)).statusCode).toBe(200);
      for (let i = 0; i < 3; i++) expect((await call('/labs')).statusCode).toBe(401);
      expect((await call('/labs')).statusCode).toBe(429);
      expect((await call('/app/inventory')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('is not part of the OpenAPI document', async () => {
    const doc = (await get('/openapi.json')).json();
    expect(Object.keys(doc.paths).filter((p) => p === '/' || p.startsWith('/app'))).toEqual([]);
  });
});
