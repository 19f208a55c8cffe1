import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/shared/config.js';
import { useHarness } from '../helpers/use-harness.js';

// Issue 9, items 7 and 11: what reaches the server before Fastify sees a request. Real sockets against the real
// server listening on 127.0.0.1, with the edge's timeouts made short (src/server/http-edge.ts).

let port: number;

const h = useHarness(
  {
    HTTP_HEADERS_TIMEOUT: '600ms',
    HTTP_REQUEST_TIMEOUT: '1200ms',
    HTTP_KEEP_ALIVE_TIMEOUT: '1s',
    HTTP_MAX_CONNECTIONS: '8',
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: '3',
  },
  async (h) => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as net.AddressInfo).port;
  },
);

interface Exchange {
  /** Everything the server sent before it closed the connection (or before the wait ran out). */
  text: string;
  closed: boolean;
  /** Milliseconds from connecting to the close (or to the end of the wait). */
  ms: number;
}

/** Sends `chunks` on a raw connection (the last one left open if `hold`), then reads until the server closes or `waitMs` passes. */
function exchange(chunks: (string | Buffer)[], waitMs = 4000, from = '127.0.0.1'): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
    const received: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(received).toString('latin1'), closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
    });
    socket.on('data', (d) => received.push(d));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' ? finish(true) : reject(err)));
  });
}

/** An open connection from `from` that sends nothing. */
function idleConnection(from: string): Promise<net.Socket> {
  return new Promise<net.Socket>((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1', localAddress: from }, () => resolve(s));
    s.on('error', () => undefined);
  });
}

/** The status and JSON body of the first response in a raw exchange. */
function parse(text: string): { status: number; headers: string; body: any } {
  const [head = '', rest = ''] = text.split('\r\n\r\n', 2);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
  const raw = rest.slice(0, length);
  return { status, headers: head, body: raw ? JSON.parse(raw) : null };
}

function expectShape(text: string, status: number, code: string): void {
  const { status: got, body } = parse(text);
  expect(got, text.slice(0, 400)).toBe(status);
  expect(body, text.slice(0, 400)).toEqual({ message: expect.any(String), code, request_id: expect.any(String) });
}

const get = (extra = '') => `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}\r\n`;

describe('slow clients are timed out', () => {
  it('a body that never arrives (Content-Length 1000, 5 bytes sent) gets 408 in our shape and the connection closes', async () => {
    const res = await exchange([
      `POST /types HTTP/1.1\r\nHost: 127.0.0.1\r\nAccess-Token: ${h.a.admin.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"nam`,
    ]);
    expect(res.closed, res.text).toBe(true);
    expect(res.ms).toBeLessThan(3500);
    expectShape(res.text, 408, 'request_timeout');
  });

  it('without a token: 401 at once, and the connection closes instead of waiting for the body', async () => {
    const res = await exchange([
      `POST /types HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"nam`,
    ]);
    expect(res.closed, res.text).toBe(true);
    expectShape(res.text, 401, 'unauthorized');
    expect(parse(res.text).headers).toMatch(/connection: close/i);
    expect(res.ms).toBeLessThan(1000);
  });

  it('headers that never end get 408 in our shape within the headers timeout', async () => {
    const res = await exchange(['GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n']);
    expect(res.closed, res.text).toBe(true);
    expect(res.ms).toBeLessThan(3500);
    expectShape(res.text, 408, 'request_timeout');
  });

  it('beyond HTTP_MAX_CONNECTIONS new connections are closed at once, and the server serves again when they go', async () => {
    // Two idle connections from each of four loopback addresses (Linux routes all of 127/8 to lo), so the
    // per-address cap of 3 is not what refuses the ninth.
    const idle: net.Socket[] = [];
    for (let i = 0; i < 8; i++) idle.push(await idleConnection(`127.0.0.${10 + (i % 4)}`));
    await new Promise((r) => setTimeout(r, 50));
    const extra = await exchange([get()], 1500, '127.0.0.20');
    expect(extra.closed).toBe(true);
    expect(extra.text).toBe('');
    for (const s of idle) s.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const ok = await exchange([get('Connection: close\r\n')]);
    expect(parse(ok.text).status, ok.text).toBe(200);
  });

  it('beyond HTTP_MAX_CONNECTIONS_PER_ADDRESS one address is closed at once, while other addresses are served', async () => {
    const idle: net.Socket[] = [];
    for (let i = 0; i < 3; i++) idle.push(await idleConnection('127.0.0.2'));
    await new Promise((r) => setTimeout(r, 50));
    const refused = await exchange([get()], 1500, '127.0.0.2');
    expect(refused.closed).toBe(true);
    expect(refused.text).toBe('');
    const other = await exchange([get('Connection: close\r\n')], 4000, '127.0.0.3');
    expect(parse(other.text).status, other.text).toBe(200);
    // A connection that goes gives its place back.
    idle.pop()!.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const again = await exchange([get('Connection: close\r\n')], 4000, '127.0.0.2');
    expect(parse(again.text).status, again.text).toBe(200);
    for (const s of idle) s.destroy();
  });
});

describe('HTTP_MAX_CONNECTIONS_PER_ADDRESS', () => {
  it('is 100 by default and off behind TRUST_PROXY, where every connection comes from the proxy', () => {
    expect(loadConfig({}).httpMaxConnectionsPerAddress).toBe(100);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).httpMaxConnectionsPerAddress).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '500' }).httpMaxConnectionsPerAddress).toBe(500);
  });
});

describe('requests Node refuses answer in the documented error shape', () => {
  it.each([
    ['an invalid method', 'GE(T /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    [
      'Content-Length with Transfer-Encoding (request smuggling)',
      'POST /types HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    ['a NUL in a header value', 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\u0000b\r\n\r\n'],
    ['no Host on HTTP/1.1', 'GET /healthz HTTP/1.1\r\n\r\n'],
  ])('%s: 400 malformed_request', async (_name, raw) => {
    const res = await exchange([raw]);
    expectShape(res.text, 400, 'malformed_request');
  });

  it('headers over 16 kB: 431 headers_too_large; a HEAD gets the same status without a body', async () => {
    const big = `X-Big: ${'a'.repeat(20_000)}\r\n`;
    const res = await exchange([get(big)]);
    expectShape(res.text, 431, 'headers_too_large');
    const head = await exchange([`HEAD /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n${big}\r\n`]);
    const parsed = head.text.split('\r\n\r\n', 2);
    expect(parsed[0]).toMatch(/^HTTP\/1\.1 431/);
    expect(parsed[1] ?? '').toBe('');
  });

  it('an Expect other than 100-continue: 417 expectation_failed', async () => {
    const res = await exchange([get('Expect: something-else\r\n')]);
    expectShape(res.text, 417, 'expectation_failed');
  });

  it('two Authorization headers, two Access-Token headers, or two different tokens: 400, never the first one winning', async () => {
    const token = h.a.admin.token;
    for (const headers of [
      `Authorization: Bearer ${token}\r\nAuthorization: Bearer nonsense\r\n`,
      `Access-Token: ${token}\r\nAccess-Token: nonsense\r\n`,
      `Access-Token: ${token}\r\nAuthorization: Bearer nonsense\r\n`,
    ]) {
      const res = await exchange([`GET /labs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers}\r\n`]);
      expectShape(res.text, 400, 'malformed_request');
    }
    const same = await exchange([
      `GET /labs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAccess-Token: ${token}\r\nAuthorization: Bearer ${token}\r\n\r\n`,
    ]);
    expect(parse(same.text).status).toBe(200);
  });
});

describe('Link headers', () => {
  it('come from APP_URL, whatever Host says, and carry only the parameters the operation declares', async () => {
    const junk = Array.from({ length: 300 }, (_, i) => `junk${i}=${'x'.repeat(10)}`).join('&'); // ~4.8 kB
    const res = await h.call(h.a.admin.token, {
      method: 'GET',
      url: `/order-requests?per_page=1&status=CREATED&${junk}`,
      headers: { host: 'evil.example' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const link = String(res.headers.link);
    expect(link).not.toContain('evil.example');
    expect(link).not.toContain('junk');
    expect(link.length).toBeLessThan(600);
    expect(link).toContain('<http://labstock.test/order-requests?');
    expect(link).toMatch(/status=CREATED/);
    expect(link).toMatch(/per_page=1/);
  });
});
