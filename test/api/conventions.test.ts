import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/harness.js';

// docs/product.md §2 conventions that hold across every operation: the error body, request ids, both token headers,
// body limits, per-token rate limits, list headers.

let h: Harness; // small body limit, so 413 is cheap to provoke
let rl: Harness; // 3 requests a minute per token
beforeAll(async () => {
  [h, rl] = await Promise.all([startHarness({ BODY_LIMIT_BYTES: '2048' }), startHarness({ RATE_LIMIT_PER_MINUTE: '3' })]);
});
afterAll(async () => {
  await Promise.all([h?.close(), rl?.close()]);
});

function expectErrorBody(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = res.json();
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.code).toBe(code);
  expect(body.request_id).toEqual(expect.any(String));
  expect(body.request_id).toBe(res.headers['x-request-id']);
  return body;
}

const orderBody = () => ({
  lab_id: h.a.legacyLab.id,
  type_id: h.a.legacyLab.typeId,
  name: 'Gloves',
  vendor_name: 'VWR',
  catalog_number: 'G-1',
  price: { amount: '500', currency: 'USD' },
  quantity: 1,
});

describe('error bodies', () => {
  it('400 for malformed JSON', async () => {
    for (const [method, url] of [
      ['POST', '/order-requests'],
      ['PUT', `/webhooks/00000000-0000-4000-8000-000000000000`],
      ['PUT', `/inventory-items/${h.a.legacyLab.itemId}`],
    ] as const) {
      const res = await h.call(h.a.admin.token, {
        method,
        url,
        headers: { 'content-type': 'application/json' },
        payload: '{"lab_id": "x",',
      });
      expectErrorBody(res, 400, 'invalid_json');
    }
  });

  it('400 for an empty body sent as JSON', async () => {
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expectErrorBody(res, 400, 'invalid_json');
  });

  it('401 without a token, with an unknown token, with a non-Bearer Authorization', async () => {
    expectErrorBody(await h.call(null, { method: 'GET', url: '/user' }), 401, 'unauthorized');
    expectErrorBody(await h.call('lst_unknown', { method: 'GET', url: '/user' }), 401, 'unauthorized');
    expectErrorBody(
      await h.call(null, { method: 'GET', url: '/user', headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } }),
      401,
      'unauthorized',
    );
    expectErrorBody(await h.call(null, { method: 'GET', url: '/labs', headers: { authorization: 'Bearer' } }), 401, 'unauthorized');
    expectErrorBody(await h.call(null, { method: 'POST', url: '/order-requests', payload: orderBody() }), 401, 'unauthorized');
  });

  it('404 for an unknown route', async () => {
    expectErrorBody(await h.call(h.a.admin.token, { method: 'GET', url: '/no-such-thing' }), 404, 'not_found');
    expectErrorBody(await h.call(h.a.admin.token, { method: 'GET', url: '/v1/labs' }), 404, 'not_found');
    expectErrorBody(await h.call(null, { method: 'GET', url: '/no-such-thing' }), 404, 'not_found');
  });

  it('405 with Allow for a method the path does not have (test/api/method-not-allowed.test.ts has more)', async () => {
    const res = await h.call(h.a.admin.token, { method: 'DELETE', url: '/labs' });
    expectErrorBody(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('404 for a resource that does not exist', async () => {
    expectErrorBody(await h.call(h.a.admin.token, { method: 'GET', url: '/labs/00000000-0000-4000-8000-000000000000' }), 404, 'not_found');
  });

  it('413 for a body over the limit (BODY_LIMIT_BYTES=2048), and nothing is created', async () => {
    const payload = JSON.stringify({ organization_id: h.a.orgId, url: 'https://hooks.example.org/big', name: 'x'.repeat(3000) });
    expect(Buffer.byteLength(payload)).toBeGreaterThan(2048);
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/webhooks',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expectErrorBody(res, 413, 'payload_too_large');
    const list = await h.call(h.a.admin.token, { method: 'GET', url: '/webhooks' });
    expect(list.json()).toEqual([]);
    const order = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: { ...orderBody(), notes: 'n'.repeat(2100) },
    });
    expectErrorBody(order, 413, 'payload_too_large');
  });

  it('a body just under the limit is accepted', async () => {
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: { ...orderBody(), notes: 'n'.repeat(1500) },
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('415 for a body that is not JSON', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/order-requests',
        headers: { 'content-type': contentType },
        payload: 'lab_id=1',
      });
      expectErrorBody(res, 415, 'unsupported_media_type');
    }
    const put = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${h.a.legacyLab.itemId}`,
      headers: { 'content-type': 'text/plain' },
      payload: '5',
    });
    expectErrorBody(put, 415, 'unsupported_media_type');
  });

  it('422 with errors [{field, message}] for validation, naming unknown fields', async () => {
    const res = await h.call(h.a.admin.token, { method: 'POST', url: '/order-requests', payload: { ...orderBody(), colour: 'blue' } });
    const body = expectErrorBody(res, 422, 'validation_failed');
    expect(Array.isArray(body.errors)).toBe(true);
    for (const e of body.errors) expect(e).toEqual({ field: expect.any(String), message: expect.any(String) });
    expect(body.errors.map((e: { field: string }) => e.field)).toContain('colour');
    expect(body.message).toContain('colour');

    const missing = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: { ...orderBody(), quantity: undefined },
    });
    const m = expectErrorBody(missing, 422, 'validation_failed');
    expect(m.errors.map((e: { field: string }) => e.field)).toContain('quantity');

    const query = await h.call(h.a.admin.token, { method: 'GET', url: '/labs?page=0' });
    expect(expectErrorBody(query, 422, 'validation_failed').errors.length).toBeGreaterThan(0);
  });

  it('an error is never a 200', async () => {
    const res = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/order-requests/00000000-0000-4000-8000-000000000000`,
      payload: { status: 'ORDERED' },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('request ids', () => {
  it('every response carries X-Request-Id, unique per request', async () => {
    const responses = [
      await h.call(h.a.admin.token, { method: 'GET', url: '/user' }),
      await h.call(null, { method: 'GET', url: '/healthz' }),
      await h.call(null, { method: 'GET', url: '/user' }),
      await h.call(h.a.admin.token, { method: 'GET', url: '/nowhere' }),
      await h.call(h.a.admin.token, { method: 'GET', url: '/labs?page=x' }),
      await h.call(h.a.admin.token, { method: 'POST', url: '/order-requests', payload: orderBody() }),
    ];
    const ids = responses.map((r) => r.headers['x-request-id']);
    for (const id of ids) expect(id).toEqual(expect.any(String));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('request_id in an error body equals the X-Request-Id header', async () => {
    for (const res of [
      await h.call(null, { method: 'GET', url: '/labs' }),
      await h.call(h.a.admin.token, { method: 'GET', url: '/labs/not-a-uuid' }),
      await h.call(h.a.member.token, { method: 'GET', url: '/webhooks' }),
    ]) {
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.json().request_id).toBe(res.headers['x-request-id']);
    }
  });
});

describe('authentication headers', () => {
  it('Access-Token and Authorization: Bearer both authenticate the same user', async () => {
    const viaHeader = await h.call(null, { method: 'GET', url: '/user', headers: { 'access-token': h.a.member.token } });
    const viaBearer = await h.call(null, { method: 'GET', url: '/user', headers: { authorization: `Bearer ${h.a.member.token}` } });
    expect(viaHeader.statusCode).toBe(200);
    expect(viaBearer.statusCode).toBe(200);
    expect(viaBearer.json()).toEqual(viaHeader.json());
    expect(viaHeader.json().id).toBe(h.a.member.id);
  });

  it('the Bearer scheme name is case-insensitive', async () => {
    const res = await h.call(null, { method: 'GET', url: '/user', headers: { authorization: `bearer ${h.a.admin.token}` } });
    expect(res.statusCode).toBe(200);
  });

  it('the health check needs no token', async () => {
    const res = await h.call(null, { method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });
});

describe('lists', () => {
  it('bare arrays with X-Total-Count and Link; past the end []; per_page accepted', async () => {
    const all = await h.call(h.a.admin.token, { method: 'GET', url: '/labs' });
    expect(Array.isArray(all.json())).toBe(true);
    expect(all.headers['x-total-count']).toBe('3');
    expect(String(all.headers.link)).toContain('rel="first"');
    expect(String(all.headers.link)).toContain('rel="last"');
    const page2 = await h.call(h.a.admin.token, { method: 'GET', url: '/labs?per_page=2&page=2' });
    expect(page2.json()).toEqual(all.json().slice(2));
    const past = await h.call(h.a.admin.token, { method: 'GET', url: '/labs?page=99' });
    expect(past.statusCode).toBe(200);
    expect(past.json()).toEqual([]);
  });

  it('date-times are RFC 3339 UTC with milliseconds', async () => {
    const res = await h.call(h.a.admin.token, { method: 'POST', url: '/order-requests', payload: orderBody() });
    expect(res.json().requested_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.json().updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

describe('rate limiting (RATE_LIMIT_PER_MINUTE=3)', () => {
  it('the 4th call of a token in a minute is 429 rate_limited with Retry-After', async () => {
    for (let i = 0; i < 3; i++) {
      const ok = await rl.call(rl.a.admin.token, { method: 'GET', url: '/user' });
      expect(ok.statusCode, `call ${i + 1}`).toBe(200);
    }
    const limited = await rl.call(rl.a.admin.token, { method: 'GET', url: '/labs' });
    const body = expectErrorBody(limited, 429, 'rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(body.message.length).toBeGreaterThan(0);
  });

  it('counts per token, not per header: Bearer with the same token is limited too', async () => {
    const res = await rl.call(null, { method: 'GET', url: '/user', headers: { authorization: `Bearer ${rl.a.admin.token}` } });
    expect(res.statusCode).toBe(429);
  });

  it('another token still succeeds', async () => {
    for (const token of [rl.a.member.token, rl.b.admin.token]) {
      const res = await rl.call(token, { method: 'GET', url: '/user' });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('/healthz is never limited, with or without a limited token', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await rl.call(null, { method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      expect((await rl.call(rl.a.admin.token, { method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    }
  });

  it('a limited request changes nothing', async () => {
    const token = rl.b.admin.token; // an admin, so the create would otherwise succeed
    let status = 0;
    for (let i = 0; i < 5 && status !== 429; i++) status = (await rl.call(token, { method: 'GET', url: '/user' })).statusCode;
    expect(status).toBe(429);
    const before = await rl.deps.db.selectFrom('webhooks').selectAll().execute();
    const res = await rl.call(token, {
      method: 'POST',
      url: '/webhooks',
      payload: { organization_id: rl.b.orgId, url: 'https://hooks.example.org/x' },
    });
    expect(res.statusCode).toBe(429);
    expect(await rl.deps.db.selectFrom('webhooks').selectAll().execute()).toEqual(before);
  });
});
