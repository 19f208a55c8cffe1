import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test/helpers/harness.js';
import { UNKNOWN_ID } from '../../test/helpers/shapes.js';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createLabstockClient,
  isLabstockError,
  type LabstockClient,
  LabstockError,
  NotFoundError,
  PermissionDeniedError,
  PreconditionFailedError,
  RateLimitedError,
  UnprocessableEntityError,
  unwrap,
  unwrapWithMeta,
} from '../src/index.js';

// The SDK's additions against the real server over a real socket (SQLite, or PostgreSQL when DATABASE_URL says
// so): the response headers on every result (ETag for If-Match, X-Total-Count, Link, Location, Idempotent-Replayed),
// the automatic Idempotency-Key, and the error subclass for each status the API answers.

let h: Harness;
let baseUrl: string;
let admin: LabstockClient;
const sentKeys: (string | null)[] = [];
beforeAll(async () => {
  h = await startHarness({ RATE_LIMIT_PER_MINUTE: '40' });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  admin = createLabstockClient({
    baseUrl,
    token: h.a.admin.token,
    fetch: (request) => {
      sentKeys.push(request.headers.get('idempotency-key'));
      return fetch(request);
    },
  });
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
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => new Error('resolved'),
    (err: unknown) => err,
  );

describe('response headers on every result', () => {
  it('a list has X-Total-Count and Link; an item has the ETag that If-Match takes, and a stale one is 412', async () => {
    await unwrap(admin.POST('/inventory-items', { body: { lab_id: h.a.legacyLab.id, name: 'Second item', quantity: '1' } }));
    const list = await admin.GET('/inventory-items', { params: { query: { lab_id: h.a.legacyLab.id, per_page: 1 } } });
    expect(list.meta.totalCount).toBe(Number(list.response.headers.get('x-total-count')));
    expect(list.meta.totalCount).toBeGreaterThan(1);
    expect(list.meta.links.next).toMatch(/[?&]page=2(&|$)/);
    expect(list.meta.requestId).toBe(list.response.headers.get('x-request-id'));

    const id = h.a.legacyLab.itemId;
    const { data: item, meta } = await unwrapWithMeta(admin.GET('/inventory-items/{id}', { params: { path: { id } } }));
    expect(meta.etag).toMatch(/^"v\d+"$/);
    const renamed = await admin.PATCH('/inventory-items/{id}', {
      params: { path: { id }, header: { 'if-match': meta.etag! } },
      body: { name: `${item.name} (renamed)` },
    });
    expect(renamed.response.status).toBe(200);
    expect(renamed.meta.etag).not.toBe(meta.etag);

    const stale = await failure(
      unwrap(
        admin.PATCH('/inventory-items/{id}', { params: { path: { id }, header: { 'if-match': meta.etag! } }, body: { name: 'lost' } }),
      ),
    );
    expect(stale).toBeInstanceOf(PreconditionFailedError);
    expect(stale).toMatchObject({ status: 412, code: 'precondition_failed' });
    expect((stale as LabstockError).headers.get('x-request-id')).toBe((stale as LabstockError).request_id);
  });

  it('a create has its Location and status; a replay under the same key says so and answers the same resource', async () => {
    const key = `meta-${crypto.randomUUID()}`;
    const first = await admin.POST('/order-requests', { params: { header: { 'Idempotency-Key': key } }, body: orderBody() });
    expect(first.meta.status).toBe(201);
    expect(first.meta.idempotentReplayed).toBe(false);
    expect(first.meta.location).toBe(`/order-requests/${first.data?.id}`);
    const again = await admin.POST('/order-requests', { params: { header: { 'Idempotency-Key': key } }, body: orderBody() });
    expect(again.meta.idempotentReplayed).toBe(true);
    expect(again.data?.id).toBe(first.data?.id);
  });
});

describe('automatic Idempotency-Key', () => {
  it('each POST without a key gets its own, so two calls create two; GET and PUT carry none', async () => {
    sentKeys.length = 0;
    const a = await unwrap(admin.POST('/order-requests', { body: orderBody() }));
    const b = await unwrap(admin.POST('/order-requests', { body: orderBody() }));
    expect(a.id).not.toBe(b.id);
    await unwrap(admin.GET('/order-requests/{id}', { params: { path: { id: a.id } } }));
    await unwrap(admin.PUT('/order-requests/{id}', { params: { path: { id: a.id } }, body: { status: 'APPROVED' } }));
    expect(sentKeys).toHaveLength(4);
    expect(sentKeys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sentKeys[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sentKeys[1]).not.toBe(sentKeys[0]);
    expect(sentKeys.slice(2)).toEqual([null, null]);

    // The server holds the key the client made: the same key and body again is a replay, not a third order.
    const replay = await fetch(`${baseUrl}/order-requests`, {
      method: 'POST',
      headers: { 'Access-Token': h.a.admin.token, 'Content-Type': 'application/json', 'Idempotency-Key': sentKeys[0]! },
      body: JSON.stringify(orderBody()),
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replay.json()) as { id: string }).id).toBe(a.id);
  });
});

describe('an error subclass for each status', () => {
  it('400, 401, 403, 404, 409 and 422, each also a LabstockError with code, message, request id and headers', async () => {
    const cases: [() => Promise<unknown>, typeof LabstockError, string][] = [
      [
        () => unwrap(admin.POST('/order-requests', { body: orderBody(), bodySerializer: () => '{"lab_id":' })),
        BadRequestError,
        'invalid_json',
      ],
      [() => unwrap(createLabstockClient({ baseUrl }).GET('/user')), AuthenticationError, 'unauthorized'],
      [() => unwrap(createLabstockClient({ baseUrl, token: h.a.member.token }).GET('/webhooks')), PermissionDeniedError, 'forbidden'],
      [() => unwrap(admin.GET('/inventory-items/{id}', { params: { path: { id: UNKNOWN_ID } } })), NotFoundError, 'not_found'],
      [
        () => unwrap(admin.POST('/order-requests', { body: { ...orderBody(), quantity: 0 } })),
        UnprocessableEntityError,
        'validation_failed',
      ],
    ];
    const order = await unwrap(admin.POST('/order-requests', { body: orderBody() }));
    cases.push([
      () => unwrap(admin.PUT('/order-requests/{id}', { params: { path: { id: order.id } }, body: { status: 'RECEIVED' } })),
      ConflictError,
      'invalid_transition',
    ]);
    for (const [call, Class, code] of cases) {
      const err = await failure(call());
      expect(err, code).toBeInstanceOf(Class);
      expect(err).toBeInstanceOf(LabstockError);
      expect(isLabstockError(err)).toBe(true);
      expect(isLabstockError(err, code)).toBe(true);
      const e = err as LabstockError;
      expect(e.name).toBe(Class.name);
      expect(e.code).toBe(code);
      expect(e.message.length).toBeGreaterThan(0);
      expect(e.request_id).toBe(e.headers.get('x-request-id'));
      expect(e.meta.status).toBe(e.status);
    }
    expect(isLabstockError(new Error('x'))).toBe(false);
    expect(isLabstockError({ code: 'not_found' })).toBe(false);
  });

  it("another tenant's id is a NotFoundError with no data, exactly like an unknown id", async () => {
    const result = await admin.GET('/inventory-items/{id}', { params: { path: { id: h.b.legacyLab.itemId } } });
    expect(result.data).toBeUndefined();
    const err = await failure(unwrap(result));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(JSON.stringify((err as LabstockError).body)).not.toContain(h.b.legacyLab.itemId);
  });

  it('429 from the server is a RateLimitedError with its Retry-After', async () => {
    const limited = createLabstockClient({ baseUrl, token: h.a.member.token, maxRetries: 0 });
    let err: unknown;
    for (let i = 0; i < 60 && err === undefined; i++) {
      const result = await limited.GET('/labs');
      if (result.response.status === 429) err = await failure(unwrap(result));
    }
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(err).toMatchObject({ status: 429, code: 'rate_limited' });
    expect((err as RateLimitedError).retryAfter).toBeGreaterThan(0);
  });
});
