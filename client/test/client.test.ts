import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test/helpers/harness.js';
import { UNKNOWN_ID } from '../../test/helpers/shapes.js';
import { createLabstockClient, type InventoryItem, type LabstockClient, LabstockError, parseLinkHeader, unwrap } from '../src/index.js';

// The typed client against the real server over a real socket (test/helpers/harness.ts, on SQLite or on
// PostgreSQL when DATABASE_URL says so): paging, reads, creates with an Idempotency-Key, typed errors and the
// two ways of authenticating.

let h: Harness;
let baseUrl: string;
let admin: LabstockClient;
beforeAll(async () => {
  h = await startHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  admin = createLabstockClient({ baseUrl, token: h.a.admin.token });
});
afterAll(() => h?.close());

const orderBody = () => ({
  lab_id: h.a.legacyLab.id,
  type_id: h.a.legacyLab.typeId,
  name: 'Anti-GFP',
  vendor_name: 'Abcam',
  catalog_number: 'ab290',
  price: { amount: '41500', currency: 'USD' },
  quantity: 2,
});

describe('paginate', () => {
  it('yields every item of a list once, in order, following Link rel="next" page after page', async () => {
    for (let i = 0; i < 6; i++) {
      await unwrap(admin.POST('/inventory-items', { body: { lab_id: h.a.legacyLab.id, name: `Paged item ${i}`, quantity: '1' } }));
    }
    const first = await admin.GET('/inventory-items', { params: { query: { lab_id: h.a.legacyLab.id, per_page: 2 } } });
    const total = Number(first.response.headers.get('x-total-count'));
    expect(total).toBeGreaterThanOrEqual(7);
    expect(parseLinkHeader(first.response.headers.get('link')).next).toMatch(/[?&]page=2(&|$)/);

    const requested: string[] = [];
    const counting = createLabstockClient({
      baseUrl,
      token: h.a.admin.token,
      fetch: (request) => {
        requested.push(request.url);
        return fetch(request);
      },
    });
    const seen: InventoryItem[] = [];
    for await (const item of counting.paginate('/inventory-items', { params: { query: { lab_id: h.a.legacyLab.id, per_page: 2 } } })) {
      seen.push(item);
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen.map((i) => i.id)).size).toBe(total);
    expect(seen.every((i) => i.lab.id === h.a.legacyLab.id)).toBe(true);
    expect(requested).toHaveLength(Math.ceil(total / 2));
    expect(requested.map((u) => new URL(u).searchParams.get('page'))).toEqual(requested.map((_, n) => (n === 0 ? null : String(n + 1))));
    // The same items as reading every page by hand.
    const byHand = await unwrap(admin.GET('/inventory-items', { params: { query: { lab_id: h.a.legacyLab.id, per_page: 100 } } }));
    expect(seen.map((i) => i.id)).toEqual(byHand.map((i) => i.id));
  });

  it('stops after one request on a list that fits one page, and yields nothing for an empty one', async () => {
    const labs: string[] = [];
    for await (const lab of admin.paginate('/labs')) labs.push(lab.id);
    expect(labs.sort()).toEqual([h.a.legacyLab.id, h.a.migratedLab.id, h.a.otherLab.id].sort());
    const none: unknown[] = [];
    for await (const t of admin.paginate('/types', { params: { query: { name: 'no such type' } } })) none.push(t);
    expect(none).toEqual([]);
  });

  it('fills path parameters and throws a LabstockError for a page the server refuses', async () => {
    const lab = h.a.migratedLab.id;
    const locations: string[] = [];
    for await (const location of admin.paginate('/labs/{id}/locations', { params: { path: { id: lab } } })) locations.push(location.id);
    expect(locations.sort()).toEqual([...h.a.migratedLab.locationIds].sort());
    const member = createLabstockClient({ baseUrl, token: h.a.member.token });
    const err = await (async () => {
      for await (const _ of member.paginate('/webhooks')) void _;
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LabstockError);
    expect((err as LabstockError).status).toBe(403);
  });
});

describe('reads and creates', () => {
  it('gets one resource, typed, exactly as the API returns it', async () => {
    const item = await unwrap(admin.GET('/inventory-items/{id}', { params: { path: { id: h.a.migratedLab.itemId } } }));
    expect(item.id).toBe(h.a.migratedLab.itemId);
    expect(item.instances.map((i) => i.id).sort()).toEqual([...h.a.migratedLab.instanceIds].sort());
    const raw = await fetch(`${baseUrl}/inventory-items/${h.a.migratedLab.itemId}`, { headers: { 'Access-Token': h.a.admin.token } });
    expect(item).toEqual(await raw.json());
  });

  it('creates once for one Idempotency-Key: the retry answers with the same resource, another body is 422', async () => {
    const key = `client-test-${crypto.randomUUID()}`;
    const count = async () =>
      Number(
        (await admin.GET('/order-requests', { params: { query: { lab_id: h.a.legacyLab.id } } })).response.headers.get('x-total-count'),
      );
    const before = await count();
    const first = await admin.POST('/order-requests', { params: { header: { 'Idempotency-Key': key } }, body: orderBody() });
    expect(first.response.status).toBe(201);
    const retry = await admin.POST('/order-requests', { params: { header: { 'Idempotency-Key': key } }, body: orderBody() });
    expect(retry.response.status).toBe(201);
    expect(retry.data).toEqual(first.data);
    expect(await count()).toBe(before + 1);

    const other = await admin.POST('/order-requests', {
      params: { header: { 'Idempotency-Key': key } },
      body: { ...orderBody(), quantity: 3 },
    });
    expect(other.response.status).toBe(422);
    const err = await unwrap(other).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LabstockError);
    expect(await count()).toBe(before + 1);

    // Without a key, each POST creates.
    await unwrap(admin.POST('/order-requests', { body: orderBody() }));
    await unwrap(admin.POST('/order-requests', { body: orderBody() }));
    expect(await count()).toBe(before + 3);
  });
});

describe('typed errors', () => {
  it('carries status, code, message and request_id (the X-Request-Id of the response)', async () => {
    const result = await admin.GET('/inventory-items/{id}', { params: { path: { id: UNKNOWN_ID } } });
    const err = (await unwrap(result).catch((e: unknown) => e)) as LabstockError;
    expect(err).toBeInstanceOf(LabstockError);
    expect(err).toBeInstanceOf(Error);
    expect(err.status).toBe(404);
    expect(err.code).toBe('not_found');
    expect(err.message.length).toBeGreaterThan(0);
    expect(err.request_id).toBe(result.response.headers.get('x-request-id'));
    expect(err.request_id.length).toBeGreaterThan(0);
  });

  it("gives 404 for another tenant's resource, exactly like an unknown id", async () => {
    const err = (await unwrap(admin.GET('/inventory-items/{id}', { params: { path: { id: h.b.legacyLab.itemId } } })).catch(
      (e: unknown) => e,
    )) as LabstockError;
    expect(err.status).toBe(404);
    expect(err.code).toBe('not_found');
  });

  it('names each invalid field of a 422 and the allowed targets of an invalid transition', async () => {
    const invalid = (await unwrap(admin.POST('/order-requests', { body: { ...orderBody(), quantity: 0 } })).catch(
      (e: unknown) => e,
    )) as LabstockError;
    expect(invalid.status).toBe(422);
    expect(invalid.code).toBe('validation_failed');
    expect(invalid.errors.map((e) => e.field)).toContain('quantity');

    const order = await unwrap(admin.POST('/order-requests', { body: orderBody() }));
    const transition = (await unwrap(
      admin.PUT('/order-requests/{id}', { params: { path: { id: order.id } }, body: { status: 'RECEIVED' } }),
    ).catch((e: unknown) => e)) as LabstockError;
    expect(transition.status).toBe(409);
    expect(transition.code).toBe('invalid_transition');
    expect(transition.allowed).toEqual(expect.arrayContaining(['APPROVED', 'ORDERED', 'CANCELLED']));
  });

  it('is 401 unauthorized without a token, and a body that is not the API error shape still gives a LabstockError', async () => {
    const anonymous = createLabstockClient({ baseUrl });
    const err = (await unwrap(anonymous.GET('/user')).catch((e: unknown) => e)) as LabstockError;
    expect(err.status).toBe(401);
    expect(err.code).toBe('unauthorized');

    const proxy = createLabstockClient({
      baseUrl,
      maxRetries: 0,
      fetch: async () => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'Retry-After': '7' } }),
    });
    const gateway = (await unwrap(proxy.GET('/user')).catch((e: unknown) => e)) as LabstockError;
    expect(gateway).toBeInstanceOf(LabstockError);
    expect(gateway.status).toBe(502);
    expect(gateway.code).toBe('http_502');
    expect(gateway.retryAfter).toBe(7);
  });
});

describe('authentication', () => {
  it('sends the token as Access-Token, and reads the token owner', async () => {
    const sent: Request[] = [];
    const client = createLabstockClient({
      baseUrl,
      token: h.a.member.token,
      fetch: (r) => {
        sent.push(r.clone());
        return fetch(r);
      },
    });
    const me = await unwrap(client.GET('/user'));
    expect(me.id).toBe(h.a.member.id);
    expect(sent[0]!.headers.get('access-token')).toBe(h.a.member.token);
  });

  it('with a session: credentials include, no token, and X-CSRF-Token on unsafe methods only', async () => {
    const sent: Request[] = [];
    let csrf = 'csrf-1';
    const client = createLabstockClient({
      baseUrl,
      session: { csrfToken: () => csrf },
      fetch: (r) => {
        sent.push(r.clone());
        return fetch(r);
      },
    });
    await client.GET('/user');
    csrf = 'csrf-2';
    await client.POST('/order-requests', { body: orderBody() });
    expect(sent.map((r) => r.credentials)).toEqual(['include', 'include']);
    expect(sent.map((r) => r.headers.get('access-token'))).toEqual([null, null]);
    expect(sent.map((r) => r.headers.get('x-csrf-token'))).toEqual([null, 'csrf-2']);
  });
});
