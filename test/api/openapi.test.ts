import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { CONTRACT_EVENT_TYPES, dataKeysOf, SHORT_EVENT_TYPES } from '../../src/events/types.js';
import { startHarness, TEST_ENV } from '../helpers/harness.js';
import { useHarness } from '../helpers/use-harness.js';

// GET /openapi.json is a valid OpenAPI 3.1 document describing the 17 public operations at docs/product.md §1's paths;
// GET /docs is the reference page; GET /metrics is Prometheus text.

let doc: any;
let resolved: any;
const h = useHarness({}, async (h) => {
  const res = await h.call(null, { method: 'GET', url: '/openapi.json' });
  doc = res.json();
  const validator = new Validator();
  await validator.validate(structuredClone(doc));
  resolved = validator.resolveRefs();
});

const OPERATIONS: [method: string, path: string, success: string][] = [
  ['get', '/healthz', '200'],
  ['get', '/user', '200'],
  ['get', '/inventory-items', '200'],
  ['get', '/inventory-items/{id}', '200'],
  ['put', '/inventory-items/{id}', '200'],
  ['put', '/inventory-items/{itemId}/instances/{itemInstanceId}', '200'],
  ['get', '/labs', '200'],
  ['get', '/labs/{id}', '200'],
  ['get', '/order-requests', '200'],
  ['post', '/order-requests', '201'],
  ['get', '/order-requests/{id}', '200'],
  ['put', '/order-requests/{id}', '200'],
  ['get', '/types', '200'],
  ['get', '/webhooks', '200'],
  ['post', '/webhooks', '201'],
  ['get', '/webhooks/{id}', '200'],
  ['put', '/webhooks/{id}', '200'],
];
const LISTS = ['/inventory-items', '/labs', '/order-requests', '/types', '/webhooks'];

const jsonSchema = (op: any, status: string) => op.responses?.[status]?.content?.['application/json']?.schema;
const propertyNames = (schema: any): string[] => Object.keys(schema?.properties ?? {}).sort();

describe('GET /openapi.json', () => {
  it('is served without a token as JSON', async () => {
    const res = await h.call(null, { method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  });

  it('is valid OpenAPI 3.1 according to the OpenAPI schema', async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toMatch(/^3\.1/);
  });

  it("has every one of the 17 public operations at docs/product.md §1's exact paths (no version prefix)", () => {
    const present = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => ['get', 'put', 'post', 'patch', 'delete'].includes(m))
        .map((m) => `${m} ${path}`),
    );
    for (const [method, path] of OPERATIONS) expect(present, `${method} ${path}`).toContain(`${method} ${path}`);
    for (const p of Object.keys(doc.paths)) expect(p).not.toMatch(/^\/v\d/);
  });

  it("documents each operation's success status (201 for the two creates)", () => {
    for (const [method, path, success] of OPERATIONS) {
      const op = resolved.paths[path][method];
      expect(op.responses, `${method} ${path}`).toHaveProperty(success);
      if (success === '201') expect(op.responses).not.toHaveProperty('200');
    }
  });

  it('names the Access-Token header as the security scheme; only /healthz is open', () => {
    const schemes = doc.components?.securitySchemes ?? {};
    const scheme = Object.values(schemes).find((s: any) => s.type === 'apiKey' && s.in === 'header' && s.name === 'Access-Token');
    expect(scheme).toBeDefined();
    const schemeName = Object.entries(schemes).find(([, s]) => s === scheme)![0];
    for (const [method, path] of OPERATIONS) {
      const security = doc.paths[path][method].security ?? doc.security;
      if (path === '/healthz') expect(security ?? [], 'health needs no token').toEqual([]);
      else expect(JSON.stringify(security), `${method} ${path}`).toContain(schemeName);
    }
  });

  it('every list operation takes the optional page parameter', () => {
    for (const path of LISTS) {
      const params: any[] = resolved.paths[path].get.parameters ?? [];
      const page = params.find((p) => p.name === 'page' && p.in === 'query');
      expect(page, path).toBeDefined();
      expect(page.required ?? false).toBe(false);
      expect(page.schema.type).toBe('integer');
    }
  });

  it('declares the path parameters as required', () => {
    for (const [method, path] of OPERATIONS) {
      for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
        const params: any[] = resolved.paths[path][method].parameters ?? [];
        const p = params.find((x) => x.name === name && x.in === 'path');
        expect(p, `${method} ${path} {${name}}`).toBeDefined();
        expect(p.required).toBe(true);
      }
    }
  });

  it("describes the webhook exactly with the contract's fields", () => {
    expect(propertyNames(jsonSchema(resolved.paths['/webhooks/{id}'].get, '200'))).toEqual([
      'event_types',
      'id',
      'is_enabled',
      'is_signed',
      'is_verified',
      'name',
      'signing_key',
      'url',
    ]);
    expect(propertyNames(jsonSchema(resolved.paths['/webhooks'].get, '200')?.items)).toEqual([
      'event_types',
      'id',
      'is_enabled',
      'is_signed',
      'is_verified',
      'name',
      'signing_key',
      'url',
    ]);
  });

  it("describes the webhook bodies: create has the contract's fields and needs url; update takes is_enabled", () => {
    const create = resolved.paths['/webhooks'].post.requestBody.content['application/json'].schema;
    expect(propertyNames(create)).toEqual([
      'event_types',
      'is_enabled',
      'is_signed',
      'is_verified',
      'lab_id',
      'name',
      'organization_id',
      'url',
    ]);
    expect(create.required).toContain('url');
    const update = resolved.paths['/webhooks/{id}'].put.requestBody.content['application/json'].schema;
    expect(propertyNames(update)).toContain('is_enabled');
  });

  it("describes the create-order-request body with the contract's fields (and Labstock's optional spend_tracking_code) and required ones", () => {
    const body = resolved.paths['/order-requests'].post.requestBody.content['application/json'].schema;
    expect(propertyNames(body)).toEqual([
      'catalog_number',
      'lab_id',
      'name',
      'notes',
      'price',
      'quantity',
      'required_before',
      'spend_tracking_code',
      'type_id',
      'vendor_name',
      'vendor_product_id',
    ]);
    expect([...body.required].sort()).toEqual(['catalog_number', 'lab_id', 'name', 'price', 'quantity', 'type_id', 'vendor_name']);
  });

  it("publishes the contract's 17 event kinds, the 2 alert kinds and order-request.updated under webhooks: a post whose body is the envelope with the configured vendor's type", () => {
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual([...SHORT_EVENT_TYPES].sort());
    expect(CONTRACT_EVENT_TYPES).toHaveLength(17);
    expect(SHORT_EVENT_TYPES).toHaveLength(20);
    for (const short of SHORT_EVENT_TYPES) {
      const op = resolved.webhooks[short].post;
      const schema = op.requestBody.content['application/json'].schema;
      expect(schema.properties.type.const, short).toBe(`com.${TEST_ENV.EVENT_VENDOR}.${short}`);
      expect(schema.properties.specversion.const).toBe('1.0');
      expect(schema.properties.datacontenttype.const).toBe('application/json');
      expect([...schema.required].sort()).toEqual(['data', 'datacontenttype', 'id', 'source', 'specversion', 'time', 'type']);
      expect(schema.properties.data.required, short).toEqual(dataKeysOf(short));
      expect(schema.properties.data.additionalProperties).toBe(false);
      expect(Object.keys(schema.properties.data.properties)).toEqual(dataKeysOf(short));
      expect(op.parameters.filter((p: any) => p.in === 'header').map((p: any) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
        'Signature',
      ]);
      expect(op.responses).toHaveProperty('2XX');
    }
    expect(
      resolved.webhooks['order-request.ordered'].post.requestBody.content['application/json'].schema.properties.data.properties
        .order_request.properties,
    ).toHaveProperty('events');
  });

  it('uses EVENT_VENDOR in the published types', async () => {
    const other = await startHarness({ EVENT_VENDOR: 'acme-labs' });
    try {
      const published = (await other.call(null, { method: 'GET', url: '/openapi.json' })).json();
      expect(published.webhooks['type.deleted'].post.requestBody.content['application/json'].schema.properties.type.const).toBe(
        'com.acme-labs.type.deleted',
      );
    } finally {
      await other.close();
    }
  });

  it('the validator really checks the webhooks section (a broken webhook fails it)', async () => {
    const broken = structuredClone(doc);
    broken.webhooks['type.created'].post.responses = 'none';
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });

  it('describes error responses with message, code and request_id', () => {
    const err = jsonSchema(resolved.paths['/webhooks'].post, '422');
    expect(err).toBeDefined();
    expect(propertyNames(err)).toEqual(expect.arrayContaining(['code', 'message', 'request_id']));
  });

  it('lists exactly the documented operations as the server answers them (no documented route is a 404)', async () => {
    for (const [method, path] of OPERATIONS) {
      const url = path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
      const res = await h.call(h.a.admin.token, {
        method: method.toUpperCase() as 'GET',
        url,
        ...(method === 'get' ? {} : { payload: {} }),
      });
      // 404 here can only be "resource not found" with the standard body, never "no route".
      if (res.statusCode === 404) expect(res.json().message, `${method} ${path}`).not.toMatch(/^No route/);
    }
  });
});

describe('GET /docs', () => {
  it('serves an HTML reference page without a token', async () => {
    let res = await h.call(null, { method: 'GET', url: '/docs' });
    if (res.statusCode >= 300 && res.statusCode < 400) {
      const location = String(res.headers.location);
      res = await h.call(null, { method: 'GET', url: location.startsWith('/') ? location : `/docs/${location.replace(/^\.\//, '')}` });
    }
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<html/i);
  });
});

describe('GET /metrics', () => {
  it('is Prometheus text with labstock_http_requests_total, counting requests by route template', async () => {
    await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${h.a.legacyLab.id}` });
    await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${h.a.migratedLab.id}` });
    const res = await h.call(null, { method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/^# TYPE labstock_http_requests_total counter$/m);
    const sample = res.body
      .split('\n')
      .find((l) => l.startsWith('labstock_http_requests_total{') && l.includes('/labs/') && l.includes('status="200"'));
    expect(sample, res.body.slice(0, 1000)).toBeDefined();
    expect(Number(sample!.split(' ').pop())).toBeGreaterThanOrEqual(2);
    expect(res.body).not.toContain(h.a.legacyLab.id);
    for (const line of res.body.split('\n').filter((l) => l && !l.startsWith('#'))) {
      expect(line).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? (-?[0-9.e+-]+|NaN|[+-]Inf)( \d+)?$/);
    }
  });

  it('grows as requests are served', async () => {
    const count = async () => {
      const body = (await h.call(null, { method: 'GET', url: '/metrics' })).body;
      return body
        .split('\n')
        .filter((l) => l.startsWith('labstock_http_requests_total{') && l.includes('route="/user"'))
        .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
    };
    const before = await count();
    for (let i = 0; i < 3; i++) await h.call(h.a.admin.token, { method: 'GET', url: '/user' });
    expect(await count()).toBe(before + 3);
  });
});
