import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createLabstockClient,
  isLabstockError,
  LabstockConnectionError,
  LabstockTimeoutError,
  RateLimitedError,
  type RetryInfo,
  ServerError,
  ServiceUnavailableError,
  unwrap,
} from '../src/index.js';

// Timeouts, retries and Idempotency-Key against a real tiny HTTP server in this file (a Labstock server cannot be
// made to answer 503, stall or drop a connection on demand): it records every request and answers with what the
// test scripts, one answer per request in order (the last one repeats). Waits come from Retry-After: 0 or 1.

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Answer =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | 'hang' // never answers
  | 'stall' // sends the headers and part of the body, then nothing
  | 'drop'; // closes the connection without an answer

const seen: Seen[] = [];
let script: Answer[] = [];
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    const answer = script[Math.min(seen.length, script.length) - 1] ?? { status: 200, body: {} };
    if (answer === 'hang') return;
    if (answer === 'drop') return req.socket.destroy();
    if (answer === 'stall') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
      return res.write('{"id":');
    }
    const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'Content-Type': 'application/json', 'X-Request-Id': `req-${seen.length}`, ...answer.headers });
    res.end(body);
  });
});
let baseUrl: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  seen.length = 0;
  script = [];
});

const busy = (retryAfter: string, status = 503) => ({
  status,
  headers: { 'Retry-After': retryAfter },
  body: { message: 'busy', code: status === 429 ? 'rate_limited' : 'service_unavailable', request_id: 'r' },
});
const lab = { id: 'lab-1', name: 'Bench' };
const retries: RetryInfo[] = [];
const client = (options: Parameters<typeof createLabstockClient>[0] extends infer O ? Partial<O> : never = {}) => {
  retries.length = 0;
  return createLabstockClient({ baseUrl, token: 'lst_test', onRetry: (info) => retries.push(info), ...options });
};
const orderBody = {
  lab_id: 'lab-1',
  type_id: 'type-1',
  name: 'Anti-GFP',
  vendor_name: 'Abcam',
  catalog_number: 'ab290',
  price: { amount: '415.00', currency: 'USD' },
  quantity: 2,
};
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => new Error('resolved'),
    (err: unknown) => err,
  );

describe('retries on 429 and 503, honouring Retry-After', () => {
  it('a GET answered 503 with Retry-After (seconds) then 200 gives the 200, after waiting what it asked', async () => {
    script = [busy('1'), { status: 200, body: lab }];
    const result = await client().GET('/labs/{id}', { params: { path: { id: 'lab-1' } } });
    expect(result.data).toEqual(lab);
    expect(result.meta.status).toBe(200);
    expect(result.meta.requestId).toBe('req-2');
    expect(seen.map((s) => s.url)).toEqual(['/labs/lab-1', '/labs/lab-1']);
    expect(retries).toMatchObject([{ attempt: 1, delay: 1000, status: 503, method: 'GET' }]);
  });

  it('reads Retry-After as an HTTP-date too', async () => {
    const at = new Date(Date.now() + 2000);
    script = [busy(at.toUTCString(), 429), { status: 200, body: lab }];
    await unwrap(client().GET('/labs/{id}', { params: { path: { id: 'lab-1' } } }));
    expect(seen).toHaveLength(2);
    // The date has whole seconds: the wait is what is left until it, at most the 2 s asked.
    expect(retries[0]!.status).toBe(429);
    expect(retries[0]!.delay).toBeGreaterThan(0);
    expect(retries[0]!.delay).toBeLessThanOrEqual(2000);
  });

  it('gives up after maxRetries (default 2) and throws the subclass for the last answer', async () => {
    script = [busy('0')];
    const err = await failure(unwrap(client().GET('/labs')));
    expect(seen).toHaveLength(3);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect(err).toBeInstanceOf(ServerError);
    expect(err).toMatchObject({ status: 503, code: 'service_unavailable', retryAfter: 0 });

    seen.length = 0;
    script = [busy('0', 429)];
    const limited = await failure(unwrap(client({ maxRetries: 1 }).GET('/labs')));
    expect(seen).toHaveLength(2);
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect(isLabstockError(limited, 'rate_limited')).toBe(true);
  });

  it('does not wait longer than maxRetryDelay: a Retry-After beyond it is returned as it is', async () => {
    script = [busy('120', 429), { status: 200, body: lab }];
    const err = await failure(unwrap(client().GET('/labs')));
    expect(seen).toHaveLength(1);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfter).toBe(120);
    expect((err as RateLimitedError).headers.get('retry-after')).toBe('120');
  });

  it('does not retry other errors (500, 404, 422)', async () => {
    for (const status of [500, 404, 422]) {
      seen.length = 0;
      script = [
        { status, body: { message: 'no', code: 'x', request_id: 'r' } },
        { status: 200, body: lab },
      ];
      const result = await client().GET('/labs/{id}', { params: { path: { id: 'lab-1' } } });
      expect(result.response.status).toBe(status);
      expect(seen).toHaveLength(1);
    }
  });

  it('maxRetries 0, per client, per call or through withOptions, sends once', async () => {
    script = [busy('0')];
    await client({ maxRetries: 0 }).GET('/labs');
    expect(seen).toHaveLength(1);
    await client().GET('/labs', { maxRetries: 0 });
    expect(seen).toHaveLength(2);
    await client().withOptions({ maxRetries: 0 }).GET('/labs');
    expect(seen).toHaveLength(3);
  });
});

describe('Idempotency-Key', () => {
  it('a POST gets one new UUID key, the same on each of its retries and another for the next call', async () => {
    script = [busy('0'), { status: 201, body: { id: 'or-1' } }];
    const api = client();
    const created = await unwrap(api.POST('/order-requests', { body: orderBody }));
    expect(created).toEqual({ id: 'or-1' });
    expect(seen).toHaveLength(2);
    const [first, retry] = seen.map((s) => s.headers['idempotency-key']);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(retry).toBe(first);
    expect(seen[1]!.body).toBe(seen[0]!.body);
    expect(JSON.parse(seen[1]!.body)).toEqual(orderBody);

    script = [{ status: 201, body: { id: 'or-2' } }];
    await api.POST('/order-requests', { body: orderBody });
    expect(seen[2]!.headers['idempotency-key']).not.toBe(first);
  });

  it("the caller's own key wins, and a PATCH gets one too", async () => {
    script = [busy('0'), { status: 201, body: { id: 'or-1' } }];
    await client().POST('/order-requests', { params: { header: { 'Idempotency-Key': 'mine-1' } }, body: orderBody });
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual(['mine-1', 'mine-1']);
    script = [{ status: 200, body: {} }];
    await client().PATCH('/inventory-items/{id}', { params: { path: { id: 'i' } }, body: { name: 'x' } });
    expect(seen[2]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('without a key (idempotencyKeys: false) a POST is never sent twice', async () => {
    script = [busy('0'), { status: 201, body: { id: 'or-1' } }];
    const err = await failure(unwrap(client({ idempotencyKeys: false }).POST('/order-requests', { body: orderBody })));
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('a keyed POST answered 409 with Retry-After (the same key still running) is sent again; other 409s are not', async () => {
    const running = { status: 409, headers: { 'Retry-After': '0' }, body: { message: 'in progress', code: 'conflict', request_id: 'r' } };
    script = [running, { status: 201, body: { id: 'or-1' } }];
    expect(await unwrap(client().POST('/order-requests', { body: orderBody }))).toEqual({ id: 'or-1' });
    expect(seen).toHaveLength(2);
    seen.length = 0;
    script = [{ status: 409, body: { message: 'no', code: 'invalid_transition', request_id: 'r' } }];
    await client().POST('/order-requests', { body: orderBody });
    expect(seen).toHaveLength(1);
  });
});

describe('timeouts, network failures and AbortSignal', () => {
  it('a request with no answer within its timeout fails with LabstockTimeoutError, retried when idempotent', async () => {
    script = ['hang'];
    const err = await failure(client({ timeout: 100, maxRetries: 1 }).GET('/labs'));
    expect(err).toBeInstanceOf(LabstockTimeoutError);
    expect(err).toBeInstanceOf(LabstockConnectionError);
    expect(err).toBeInstanceOf(TypeError);
    expect(seen).toHaveLength(2);
    expect(retries).toMatchObject([{ attempt: 1, status: undefined, error: expect.any(LabstockTimeoutError) }]);
  });

  it('the timeout is per call and covers the body: headers then a stalled body is a timeout too', async () => {
    script = ['stall', { status: 200, body: lab }];
    const api = client(); // default 30 s
    const result = await api.GET('/labs/{id}', { params: { path: { id: 'lab-1' } }, timeout: 100 });
    expect(result.data).toEqual(lab);
    expect(seen).toHaveLength(2);
    seen.length = 0;
    script = ['stall'];
    expect(await failure(api.GET('/labs', { timeout: 100, maxRetries: 0 }))).toBeInstanceOf(LabstockTimeoutError);
  });

  it('a dropped connection is retried for a GET and a keyed POST, and thrown as LabstockConnectionError otherwise', async () => {
    script = ['drop', { status: 200, body: [lab] }];
    expect(await unwrap(client().GET('/labs'))).toEqual([lab]);
    expect(seen).toHaveLength(2);
    seen.length = 0;
    script = ['drop', { status: 201, body: { id: 'or-1' } }];
    expect(await unwrap(client().POST('/order-requests', { body: orderBody }))).toEqual({ id: 'or-1' });
    expect(seen[1]!.headers['idempotency-key']).toBe(seen[0]!.headers['idempotency-key']);
    seen.length = 0;
    script = ['drop'];
    const err = await failure(client({ idempotencyKeys: false }).POST('/order-requests', { body: orderBody }));
    expect(err).toBeInstanceOf(LabstockConnectionError);
    expect((err as Error).cause).toBeDefined();
    expect(seen).toHaveLength(1);
  });

  it("the caller's AbortSignal ends the call, in flight or while waiting to retry, and is never retried", async () => {
    script = ['hang'];
    const controller = new AbortController();
    const call = client().GET('/labs', { signal: controller.signal });
    await until(() => seen.length === 1);
    controller.abort();
    expect(await failure(call)).toMatchObject({ name: 'AbortError' });

    seen.length = 0;
    script = [busy('30')];
    const waiting = new AbortController();
    const retrying = client().GET('/labs', { signal: waiting.signal });
    await until(() => retries.length === 1);
    waiting.abort(new Error('gave up'));
    expect(await failure(retrying)).toMatchObject({ message: 'gave up' });
    expect(seen).toHaveLength(1);
  });
});

/** Polls `condition` until it holds (the test's own timeout ends a wait that never does). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
