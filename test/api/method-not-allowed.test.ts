// A path that exists answered with a method it does not have is 405 with `Allow` (RFC 9110 §15.5.6), not 404
// (docs/errors.md, method_not_allowed): the methods are those GET /openapi.json lists for the path, plus HEAD
// beside GET. Only the route table decides it, before any token or id is looked at, so it says nothing about data.

import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/errors.js';
import { useHarness } from '../helpers/use-harness.js';

let paths: Record<string, Record<string, unknown>>;
const h = useHarness({}, async (h) => {
  paths = (await h.call(null, { method: 'GET', url: '/openapi.json' })).json().paths;
});

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const allowOf = (header: unknown) => String(header).split(', ').sort();

describe('405 Method Not Allowed', () => {
  it('lists in Allow exactly the methods the document gives each public path, whatever method was sent', async () => {
    const item = h.a.migratedLab;
    const concrete: Record<string, string> = {
      '/inventory-items/{id}': `/inventory-items/${item.itemId}`,
      '/inventory-items/{itemId}/instances/{itemInstanceId}': `/inventory-items/${item.itemId}/instances/${item.instanceIds[0]}`,
      '/labs/{id}': `/labs/${item.id}`,
      '/healthz': '/healthz',
      '/webhooks': '/webhooks',
    };
    for (const [path, url] of Object.entries(concrete)) {
      const documented = Object.keys(paths[path]!).map((m) => m.toUpperCase());
      const expected = [...documented, ...(documented.includes('GET') ? ['HEAD'] : [])].sort();
      for (const method of METHODS.filter((m) => !expected.includes(m))) {
        const res = await h.call(h.a.admin.token, { method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(405);
        expect(allowOf(res.headers.allow), `${method} ${url}`).toEqual(expected);
        if (method !== 'HEAD') expectError(res, 405, 'method_not_allowed');
      }
    }
  });

  it('DELETE /healthz: 405 naming GET and HEAD; the method it has still answers', async () => {
    const res = await h.call(null, { method: 'DELETE', url: '/healthz' });
    const body = expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(body.message).toContain('GET, HEAD');
    expect((await h.call(null, { method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('405 errors', () => {
  it('a path that does not exist under any method stays 404, with no Allow', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await h.call(h.a.admin.token, { method, url: '/inventory-itemz' });
      expectError(res, 404, 'not_found');
      expect(res.headers.allow).toBeUndefined();
    }
  });
});

describe('405 security', () => {
  it("another tenant's id and no token at all get the same answer as one's own id: nothing about the resource", async () => {
    const own = await h.call(h.a.admin.token, { method: 'POST', url: `/labs/${h.a.legacyLab.id}` });
    const foreign = await h.call(h.a.admin.token, { method: 'POST', url: `/labs/${h.b.legacyLab.id}` });
    const anonymous = await h.call(null, { method: 'POST', url: `/labs/${h.b.legacyLab.id}` });
    for (const res of [own, foreign, anonymous]) {
      const body = expectError(res, 405, 'method_not_allowed');
      expect(res.headers.allow).toBe(own.headers.allow);
      expect(Object.keys(body).sort()).toEqual(['code', 'message', 'request_id']);
      expect(res.body).not.toContain(h.b.orgId);
    }
    expect(foreign.json().message.replace(h.b.legacyLab.id, 'ID')).toBe(own.json().message.replace(h.a.legacyLab.id, 'ID'));
  });
});
