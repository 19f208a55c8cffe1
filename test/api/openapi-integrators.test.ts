// What issue 24 asks of GET /openapi.json for integrators (docs/api.md, "For integrators"), beyond Redocly's rules
// (test/lint/openapi.test.ts) and the generators (test/lint/generators.test.ts): examples where a reader looks for
// them, the response headers the server really sends, 400/403 wherever they can happen, and /docs titled and ordered.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHORT_EVENT_TYPES } from '../../src/events/types.js';
import { LOCATION_OF, PUBLIC_OPERATIONS } from '../../src/server/openapi-document.js';
import { type Harness, startHarness } from '../helpers/harness.js';

let h: Harness;
let doc: any;
beforeAll(async () => {
  h = await startHarness();
  doc = (await h.call(null, { method: 'GET', url: '/openapi.json' })).json();
});
afterAll(() => h?.close());

const opOf = (key: string) => {
  const [method, path] = key.split(' ') as [string, string];
  return doc.paths[path][method];
};
const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method} ${path}`, op })),
  );

describe('examples', () => {
  it('every public operation has an example response, and one of its request body when it takes one', () => {
    expect(PUBLIC_OPERATIONS).toHaveLength(17);
    for (const key of PUBLIC_OPERATIONS) {
      const op = opOf(key);
      const success = Object.keys(op.responses).find((s) => s.startsWith('2'))!;
      expect(op.responses[success].content['application/json'].example, key).toBeDefined();
      if (op.requestBody) expect(op.requestBody.content['application/json'].example, key).toBeDefined();
    }
  });

  it('every event kind has an example envelope of its own type', () => {
    for (const short of SHORT_EVENT_TYPES) {
      const example = doc.webhooks[short].post.requestBody.content['application/json'].example;
      expect(example.type, short).toBe(`com.labstock.${short}`);
      expect(Object.keys(example.data).length, short).toBeGreaterThan(0);
    }
  });
});

describe('response headers', () => {
  it('documents Link and X-Total-Count on the public lists, and the server sends them', async () => {
    for (const path of ['/inventory-items', '/labs', '/order-requests', '/types', '/webhooks']) {
      expect(Object.keys(doc.paths[path].get.responses['200'].headers), path).toEqual(expect.arrayContaining(['Link', 'X-Total-Count']));
      const res = await h.call(h.a.admin.token, { method: 'GET', url: path });
      expect(res.headers.link, path).toContain('rel="first"');
      expect(res.headers['x-total-count'], path).toMatch(/^\d+$/);
    }
  });

  it('documents ETag on the item operations, and the server sends it', async () => {
    for (const key of PUBLIC_OPERATIONS.filter((k) => k.includes('/inventory-items/'))) {
      expect(opOf(key).responses['200'].headers?.ETag, key).toBeDefined();
    }
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${h.a.legacyLab.itemId}` });
    expect(res.headers.etag).toMatch(/^"v\d+"$/);
    expect(opOf('get /labs/{id}').responses['200'].headers?.ETag).toBeUndefined();
  });

  it('documents Location on the answers of the operations that make something, and the server sends that path', async () => {
    const documented = operations().filter(({ op }) => ['201', '202'].some((s) => op.responses[s]?.headers?.Location));
    expect(documented.map(({ op }) => op.operationId).sort()).toEqual(Object.keys(LOCATION_OF).sort());
    const made = [
      { url: '/types', payload: { lab_id: h.a.legacyLab.id, name: 'Located type' }, op: 'createType' },
      { url: '/locations', payload: { lab_id: h.a.migratedLab.id, name: 'Located shelf' }, op: 'createLocation' },
      { url: '/inventory-items', payload: { lab_id: h.a.legacyLab.id, name: 'Located item' }, op: 'createInventoryItem' },
    ];
    for (const { url, payload, op } of made) {
      const res = await h.call(h.a.admin.token, { method: 'POST', url, payload });
      expect(res.statusCode, op).toBe(201);
      expect(res.headers.location, op).toBe(LOCATION_OF[op]!.replace('{id}', res.json().id));
    }
  });

  it('documents Retry-After on every 429, and Deprecation on every answer of the deprecated operation', () => {
    for (const { key, op } of operations()) expect(op.responses['429']?.headers?.['Retry-After'], key).toBeDefined();
    const deprecated = opOf('put /inventory-items/{id}');
    expect(deprecated.deprecated).toBe(true);
    for (const [status, response] of Object.entries(deprecated.responses as Record<string, any>)) {
      expect(response.headers?.Deprecation, status).toBeDefined();
    }
    expect(opOf('get /inventory-items/{id}').responses['200'].headers?.Deprecation).toBeUndefined();
  });
});

describe('errors', () => {
  it('declares 400 and 403 on every operation that takes a credential, as ErrorResponse', () => {
    for (const { key, op } of operations()) {
      if (op.security?.length === 0) continue;
      for (const status of ['400', '403']) {
        expect(op.responses[status]?.content['application/json'].schema.$ref, `${key} ${status}`).toBe(
          '#/components/schemas/ErrorResponse',
        );
      }
    }
    expect(doc.components.schemas).not.toHaveProperty('Error');
  });

  it('a tenant token on shop fulfilment really is 403, as declared', async () => {
    // Any credential of the wrong kind: what makes 403 possible on every operation (src/server/auth-hook.ts).
    const res = await h.call(h.a.admin.token, { method: 'GET', url: '/shop/order-items' });
    expect(res.statusCode).toBe(403);
    expect(opOf('get /shop/order-items').responses).toHaveProperty('403');
  });
});

describe('reading order and the reference page', () => {
  it('lists the public operations first: their tags lead, and their paths lead each tag', () => {
    const publicTags = [...new Set(PUBLIC_OPERATIONS.flatMap((key) => opOf(key).tags as string[]))];
    expect(
      doc.tags
        .slice(0, publicTags.length)
        .map((t: any) => t.name)
        .sort(),
    ).toEqual(publicTags.sort());
    const paths = Object.keys(doc.paths);
    const publicPaths = [...new Set(PUBLIC_OPERATIONS.map((key) => key.split(' ')[1]!))];
    expect(paths.slice(0, publicPaths.length)).toEqual(publicPaths);
  });

  it('marks the deprecated item fields deprecated', () => {
    const item = doc.components.schemas.InventoryItem.properties;
    for (const field of ['expiration_date', 'lot_number', 'location', 'sublocation']) expect(item[field].deprecated, field).toBe(true);
    expect(item.quantity.deprecated).toBeUndefined();
  });

  it('/docs is titled Labstock, and the document says how to get a token', async () => {
    const page = await h.call(null, { method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<title>Labstock API reference<\/title>/);
    expect(doc.info.description).toContain('## Get a token');
    expect(doc.info.description).toContain('Settings → API tokens');
  });
});
