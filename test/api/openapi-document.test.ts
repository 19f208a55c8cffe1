import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAMED_SCHEMAS } from '../../src/server/named-schemas.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { UNKNOWN_ID } from '../helpers/shapes.js';

// GET /openapi.json made for client generators (issue 11): an operationId on every operation (the list in
// docs/api.md), each resource once under components.schemas and $ref'd, the ways to authenticate as security
// schemes with each operation's own, servers from APP_URL, Idempotency-Key on the POSTs, PATCHes and PUTs; still valid OpenAPI 3.1.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

let h: Harness;
let doc: any;
let size: number;
let operations: { method: string; path: string; op: any }[];
beforeAll(async () => {
  h = await startHarness({ APP_URL: 'https://labstock.example.org/' });
  const res = await h.call(null, { method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  size = res.body.length;
  doc = res.json();
  operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ method, path, op })),
  );
});
afterAll(() => h?.close());

/** Every `$ref` string anywhere under `node`. */
/** The node with every `#/components/schemas/…` reference replaced by the schema it names (recursively). */
function inline(node: unknown, depth = 0): unknown {
  if (depth > 50) throw new Error('$ref cycle');
  if (Array.isArray(node)) return node.map((n) => inline(n, depth + 1));
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as { $ref?: string }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    return inline(doc.components.schemas[ref.slice('#/components/schemas/'.length)], depth + 1);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v, depth + 1)]));
}

function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) refsIn(n, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else refsIn(value, out);
    }
  }
  return out;
}

/** The operationId table of docs/api.md: `| \`listLabs\` | \`GET /labs\` |`. */
function documentedOperationIds(): Map<string, string> {
  const text = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const rows = [...text.matchAll(/^\| `(\w+)` \| `(GET|POST|PUT|PATCH|DELETE) (\S+)` \|/gm)];
  return new Map(rows.map((m) => [m[1]!, `${m[2]!.toLowerCase()} ${m[3]!}`]));
}

describe('GET /openapi.json for generators', () => {
  it('is valid OpenAPI 3.1, and every $ref resolves', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of new Set(refs)) {
      expect(ref, 'a reference inside the document').toMatch(/^#\/components\/schemas\/[A-Za-z]+$/);
      expect(doc.components.schemas, ref).toHaveProperty(ref.split('/').pop()!);
    }
  });

  it('gives every operation a unique camelCase operationId, the ones docs/api.md lists', () => {
    const ids = operations.map(({ op }) => op.operationId);
    for (const { method, path, op } of operations) {
      expect(op.operationId, `${method} ${path}`).toMatch(/^(list|get|create|update|delete|[a-z]+)[A-Z][A-Za-z]*$/);
    }
    expect(new Set(ids).size).toBe(ids.length);
    const documented = documentedOperationIds();
    expect(Object.fromEntries(operations.map(({ method, path, op }) => [op.operationId, `${method} ${path}`]))).toEqual(
      Object.fromEntries(documented),
    );
    expect(documented.get('listInventoryItems')).toBe('get /inventory-items');
    expect(documented.get('getInventoryItem')).toBe('get /inventory-items/{id}');
    expect(documented.get('createOrderRequest')).toBe('post /order-requests');
  });

  it('names each resource once under components.schemas and refers to it from every success response', () => {
    const names = NAMED_SCHEMAS.map((s) => (s as { $id: string }).$id);
    expect(Object.keys(doc.components.schemas)).toEqual(names);
    for (const name of ['InventoryItem', 'Lab', 'OrderRequest', 'InventoryType', 'Webhook', 'UserSummary', 'ErrorResponse', 'Money']) {
      expect(names).toContain(name);
    }
    for (const { method, path, op } of operations) {
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        const schema = response.content?.['application/json']?.schema;
        // A CSV export answers a file, not a resource (docs/csv.md).
        if (response.content?.['text/csv']) {
          expect(response.content['text/csv'].schema, `${method} ${path} ${status}`).toEqual({ type: 'string' });
          continue;
        }
        // Label sheets and a stocktake's report answer a PDF file (docs/labels.md, docs/stocktake.md).
        if (response.content?.['application/pdf']) {
          expect(response.content['application/pdf'].schema, `${method} ${path} ${status}`).toEqual({ type: 'string', format: 'binary' });
          continue;
        }
        // An attachment's download answers the file, or nothing when it is not modified (docs/attachments.md).
        if (path === '/attachments/{id}/content' && method === 'get' && (status === '200' || status === '304')) {
          if (status === '200') expect(response.content['application/octet-stream'].schema).toEqual({ type: 'string', format: 'binary' });
          else expect(response.content, `${method} ${path} ${status}`).toBeUndefined();
          continue;
        }
        // No body: 204, and the 202 of POST /auth/password-reset (it says nothing, so it cannot tell who has an account).
        // The SSO browser flow's redirects are not in the document (src/server/openapi.ts, onlyRedirects).
        if (status === '204' || (status === '202' && path === '/auth/password-reset')) {
          expect(schema, `${method} ${path} ${status}`).toBeUndefined();
          continue;
        }
        const ref = schema?.$ref ?? (schema?.type === 'array' ? schema.items?.$ref : undefined);
        expect(ref, `${method} ${path} ${status} is a named schema`).toMatch(/^#\/components\/schemas\//);
        // Errors are the Error body; /healthz answers 503 with its own Health body (docs/product.md §1).
        if (Number(status) >= 400 && path !== '/healthz')
          expect(ref, `${method} ${path} ${status}`).toBe('#/components/schemas/ErrorResponse');
      }
    }
    // Resources refer to each other by name too: a lab inside an item is the Lab schema.
    expect(doc.components.schemas.InventoryItem.properties.lab).toEqual({ $ref: '#/components/schemas/Lab' });
    expect(JSON.stringify(doc)).not.toContain('"$id"');
    expect(JSON.stringify(doc)).not.toMatch(/def-\d/);
  });

  it('refers instead of repeating: paths are under a third of their size with every schema inline (the webhooks section stays whole)', () => {
    // Measured against the same document with every $ref replaced by its schema, so the check holds as routes are added.
    const inlined = JSON.stringify({ ...doc, paths: inline(doc.paths), components: { ...doc.components, schemas: undefined } }).length;
    // The whole document was 421 kB before schemas were named; the standalone event schemas keep it above half.
    expect(size).toBeLessThan(inlined * 0.6);
    expect(JSON.stringify(doc.paths).length).toBeLessThan(JSON.stringify(inline(doc.paths)).length / 3);
  });

  it('keeps each published event schema standalone: it compiles and validates with no document around it', () => {
    expect(refsIn(doc.webhooks)).toEqual([]);
    const ajv = addFormats(new Ajv2020({ strict: true, allowUnionTypes: true }));
    const schema = doc.webhooks['type.created'].post.requestBody.content['application/json'].schema;
    const validate = ajv.compile(schema);
    const lab = { id: h.a.legacyLab.id, name: 'Lab', organization: { id: h.a.orgId, name: 'Org' }, uses_instances: false };
    const event = {
      specversion: '1.0',
      id: UNKNOWN_ID,
      source: 'https://labstock.test',
      type: 'com.labstock.type.created',
      datacontenttype: 'application/json',
      time: '2026-11-23T10:00:00.000Z',
      data: { type: { id: h.a.legacyLab.typeId, name: 'Reagent', lab } },
    };
    expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...event, data: { type: { id: h.a.legacyLab.typeId, name: 'Reagent', lab: { ...lab, organization: {} } } } })).toBe(
      false,
    );
  });

  it('declares the Access-Token header, bearer and the labstock_session cookie as security schemes', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      AccessToken: { type: 'apiKey', in: 'header', name: 'Access-Token' },
      BearerAuth: { type: 'http', scheme: 'bearer' },
      SessionCookie: { type: 'apiKey', in: 'cookie', name: 'labstock_session' },
    });
  });

  it("states each operation's security as the server applies it: open, operator tokens, or any tenant credential", async () => {
    const tenant = [{ AccessToken: [] }, { BearerAuth: [] }, { SessionCookie: [] }];
    expect(operations.filter(({ op }) => op.security?.length > 0).length).toBeGreaterThan(45);
    for (const { method, path, op } of operations) {
      const where = `${method} ${path}`;
      expect(op.security, where).toBeDefined();
      if (path === '/healthz') expect(op.security, where).toEqual([]);
      else if ((op.tags as string[]).includes('Shop fulfilment'))
        expect(op.security, where).toEqual([{ AccessToken: [] }, { BearerAuth: [] }]);
      // An open route (config.public) states [], and the request below shows that it really is open.
      else if (op.security.length > 0) expect(op.security, where).toEqual(tenant);
      // What the server does without any credential agrees with what the document says.
      const url = path.replace(/\{\w+\}/g, UNKNOWN_ID);
      const res = await h.call(null, {
        method: method.toUpperCase() as 'GET',
        url,
        ...(method === 'get' || method === 'delete' ? {} : { payload: {} }),
      });
      if (op.security.length === 0) expect(res.statusCode, where).not.toBe(401);
      else expect([res.statusCode, res.json().code], where).toEqual([401, 'unauthorized']);
    }
  });

  it('accepts Authorization: Bearer wherever the Access-Token header works', async () => {
    const res = await h.call(null, { method: 'GET', url: '/user', headers: { authorization: `Bearer ${h.a.admin.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(h.a.admin.id);
  });

  it('takes servers from APP_URL', () => {
    expect(doc.servers).toEqual([{ url: 'https://labstock.example.org' }]);
  });

  it('documents the optional Idempotency-Key header on every POST, PATCH and PUT that takes a credential', () => {
    // Open POSTs (sign-in) take no credential; the single sign-on link sets a flow cookie whose secret only this
    // answer carries, so it is never claimed. Token and invitation creates are claimed without storing the answer.
    // A password change's body holds passwords, a name change's may, the SSO settings' the client secret: not
    // hashed into a claim either.
    // Printing labels changes nothing (a second send prints again): POST /labels claims no key (docs/labels.md).
    const noKey = new Set(['/auth/sso/link', '/user/password', '/user', '/organization/sso', '/labels']);
    const keyed = (method: string) => method === 'post' || method === 'patch' || method === 'put';
    const writes = operations.filter(({ method, path, op }) => keyed(method) && op.security.length > 0 && !noKey.has(path));
    expect(writes.length).toBeGreaterThan(15);
    expect(writes.filter(({ method }) => method === 'patch').length).toBeGreaterThanOrEqual(4);
    expect(writes.filter(({ method }) => method === 'put').map(({ path }) => path)).toEqual(
      expect.arrayContaining(['/webhooks/{id}', '/order-requests/{id}', '/inventory-items/{id}']),
    );
    for (const { method, path, op } of writes) {
      const key = (op.parameters ?? []).find((p: any) => p.in === 'header' && p.name === 'Idempotency-Key');
      expect(key, `${method} ${path}`).toBeDefined();
      expect(key.required).toBe(false);
      expect(key.schema.type).toBe('string');
    }
    for (const { method, path, op } of operations.filter(
      ({ method, path, op }) => !keyed(method) || op.security.length === 0 || noKey.has(path),
    )) {
      expect(
        (op.parameters ?? []).map((p: any) => p.name),
        `${method} ${path}`,
      ).not.toContain('Idempotency-Key');
    }
    // The header the document adds is only documentation: the If-Match the route declares is still there.
    const instances = doc.paths['/inventory-items/{id}/instances'].post.parameters.map((p: any) => `${p.in}:${p.name}`);
    expect(instances).toEqual(expect.arrayContaining(['header:if-match', 'header:Idempotency-Key', 'path:id']));
  });
});
