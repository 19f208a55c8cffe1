import dns from 'node:dns/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../src/delivery/worker.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { Receiver } from '../helpers/receiver.js';

// docs/product.md §8 SSRF: the address actually connected to must be public unicast. A URL naming a blocked address
// literally is refused at create and update (422 naming url); a name is checked after DNS, at connect time, so a
// name resolving to loopback is accepted at create but its deliveries are refused ('blocked' in the log).
// WEBHOOK_ALLOWED_CIDRS opens exactly the ranges it names. Redirects are never followed.

const FAST = { WEBHOOK_RETRY_SCHEDULE: '50ms,100ms', WEBHOOK_POLL: '50ms' };

const OPEN = { ...FAST, WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32' };

// The literal checks run without a worker (no handshake ever leaves this machine for the public addresses they
// accept); the delivery checks get harnesses of their own, each with a worker.
let closed: Harness; // no WEBHOOK_ALLOWED_CIDRS: everything non-public is refused
let open: Harness; // WEBHOOK_ALLOWED_CIDRS=127.0.0.1/32
let closedD: Harness;
let openD: Harness;
let closedWorker: Worker;
let openWorker: Worker;
beforeAll(async () => {
  [closed, open, closedD, openD] = await Promise.all([startHarness(FAST), startHarness(OPEN), startHarness(FAST), startHarness(OPEN)]);
  [closedWorker, openWorker] = await Promise.all([closedD.startWorker(), openD.startWorker()]);
});
afterAll(async () => {
  await Promise.all([closed?.close(), open?.close(), closedD?.close(), openD?.close()]);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the harness has no pending delivery left (every retry done). */
async function settle(h: Harness, worker: Worker, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await worker.idle();
    const pending = await h.deps.db.selectFrom('webhook_deliveries').select('id').where('status', '=', 'pending').execute();
    if (pending.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${pending.length} deliveries still pending after ${timeoutMs} ms`);
    await sleep(20);
  }
}

const snapshot = async (h: Harness) => ({
  webhooks: await h.deps.db.selectFrom('webhooks').selectAll().orderBy('id').execute(),
  deliveries: await h.deps.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute(),
  events: await h.deps.db.selectFrom('events').selectAll().orderBy('id').execute(),
});

async function createHook(h: Harness, url: string): Promise<{ id: string; url: string; signing_key: string }> {
  const res = await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function pingHook(h: Harness, id: string): Promise<{ id: string; event_id: string }> {
  const res = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${id}/ping` });
  expect(res.statusCode, res.body).toBe(202);
  return res.json();
}

async function deliveriesOf(h: Harness, id: string): Promise<any[]> {
  const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${id}/deliveries` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const fields = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((e) => e.field);

async function expectCreateRefused(h: Harness, url: string): Promise<void> {
  const before = await snapshot(h);
  const res = await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url } });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(422);
  expect(res.json()).toMatchObject({ code: 'validation_failed', message: expect.any(String) });
  expect(fields(res.json())).toEqual(['url']);
  expect(await snapshot(h)).toEqual(before);
}

const BLOCKED: [string, string][] = [
  ['IPv4 loopback', 'http://127.0.0.1/hook'],
  ['IPv4 loopback elsewhere in 127/8', 'https://127.1.2.3:8443/hook'],
  ['10/8', 'http://10.0.0.1/hook'],
  ['10/8, last host', 'https://10.255.255.254/'],
  ['172.16/12', 'http://172.16.0.1/hook'],
  ['172.16/12, last host', 'http://172.31.255.254/hook'],
  ['192.168/16', 'http://192.168.1.1/hook'],
  ['cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
  ['link-local', 'http://169.254.0.1/'],
  ['CGNAT', 'http://100.64.0.1/hook'],
  ['CGNAT, last host', 'http://100.127.255.254/hook'],
  ['unspecified', 'http://0.0.0.0/hook'],
  ['multicast', 'http://224.0.0.1/'],
  ['broadcast', 'http://255.255.255.255/'],
  ['IPv6 loopback', 'http://[::1]/hook'],
  ['IPv6 loopback, long form', 'http://[0:0:0:0:0:0:0:1]:8080/hook'],
  ['IPv6 unspecified', 'http://[::]/hook'],
  ['IPv6 link-local', 'http://[fe80::1]/hook'],
  ['IPv6 unique local fc00::/7', 'http://[fc00::1]/hook'],
  ['IPv6 unique local fd', 'https://[fd12:3456:789a::1]/hook'],
  ['IPv6 multicast', 'http://[ff02::1]/hook'],
  ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/hook'],
  ['IPv4-mapped private', 'http://[::ffff:10.0.0.1]/hook'],
  ['IPv4-mapped metadata, hex', 'http://[::ffff:a9fe:a9fe]/hook'],
  ['NAT64 loopback', 'http://[64:ff9b::7f00:1]/hook'],
  ['NAT64 metadata', 'http://[64:ff9b::169.254.169.254]/hook'],
  ['6to4 loopback', 'http://[2002:7f00:1::1]/hook'],
  ['decimal', 'http://2130706433/'],
  ['octal', 'http://0177.0.0.1/'],
  ['hex', 'http://0x7f000001/'],
  ['short form', 'http://127.1/'],
  ['hex private', 'http://0xa000001/hook'],
  ['decimal metadata', 'http://2852039166/latest/meta-data/'],
  ['localhost', 'http://localhost/hook'],
  ['localhost with a port', 'http://localhost:8080/hook'],
  ['LOCALHOST in capitals', 'https://LOCALHOST/hook'],
  ['localhost with a trailing dot', 'http://localhost./hook'],
  ['a .localhost name', 'http://foo.localhost/hook'],
  ['a deeper .localhost name', 'http://a.b.localhost:9000/hook'],
];

const PUBLIC: string[] = [
  'https://hooks.example.org/in',
  'https://93.184.216.34/hook',
  'http://8.8.8.8:8080/hook',
  'http://172.32.0.1/hook', // just past 172.16/12
  'http://100.128.0.1/hook', // just past 100.64/10
  'http://11.0.0.1/hook',
  'https://[2606:4700:4700::1111]/hook',
  'http://[64:ff9b::808:808]/hook', // NAT64 of 8.8.8.8
  'http://[::ffff:8.8.8.8]/hook',
];

describe('SSRF: literal targets at create and update', () => {
  it.each(BLOCKED)('create with %s (%s): 422 naming url, nothing stored', async (_label, url) => {
    await expectCreateRefused(closed, url);
  });

  it.each(BLOCKED)('update to %s (%s): 422 naming url, webhook unchanged', async (_label, url) => {
    const hook = await createHook(closed, 'https://hooks.example.org/keep');
    const before = await snapshot(closed);
    const res = await closed.call(closed.a.admin.token, {
      method: 'PUT',
      url: `/webhooks/${hook.id}`,
      payload: { url, is_enabled: false },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(fields(res.json())).toEqual(['url']);
    expect(await snapshot(closed)).toEqual(before);
  });

  it.each(PUBLIC)('a public target is accepted: %s', async (url) => {
    const hook = await createHook(closed, url);
    expect(hook.url).toBe(url);
    const res = await closed.call(closed.a.admin.token, { method: 'PUT', url: `/webhooks/${hook.id}`, payload: { url } });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('SSRF: embedded-IPv4 forms beyond mapped and NAT64', () => {
  // ::/96 (IPv4-compatible, deprecated by RFC 4291) lies in ::/8, reserved by the IETF: not public unicast, and
  // [::127.0.0.1] spells loopback. docs/product.md §8 admits only public unicast targets.
  it('IPv4-compatible forms of loopback, metadata and private addresses are refused at create (422 naming url)', async () => {
    const urls = ['http://[::127.0.0.1]/hook', 'http://[::a9fe:a9fe]/latest/meta-data/', 'http://[::10.0.0.1]/hook'];
    const answers: string[] = [];
    for (const url of urls) {
      const res = await closed.call(closed.a.admin.token, {
        method: 'POST',
        url: '/webhooks',
        payload: { organization_id: closed.a.orgId, url },
      });
      answers.push(`${url} -> ${res.statusCode} ${res.statusCode === 422 ? fields(res.json()).join(',') : ''}`.trim());
    }
    expect(answers).toEqual(urls.map((u) => `${u} -> 422 url`));
  });
});

describe('SSRF: WEBHOOK_ALLOWED_CIDRS=127.0.0.1/32 opens exactly 127.0.0.1', () => {
  it.each(['http://127.0.0.1/hook', 'http://127.0.0.1:8080/hook', 'http://2130706433/hook', 'http://0x7f000001:9/hook'])(
    '%s is accepted at create and update',
    async (url) => {
      const hook = await createHook(open, url);
      const other = await createHook(open, 'https://hooks.example.org/x');
      const res = await open.call(open.a.admin.token, { method: 'PUT', url: `/webhooks/${other.id}`, payload: { url } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().url).toBe(url);
      expect(hook.url).toBe(url);
    },
  );

  it.each([
    'http://127.0.0.2/hook',
    'http://127.0.0.0/hook',
    'http://127.255.255.255/hook',
    'http://[::1]/hook',
    'http://10.0.0.1/hook',
    'http://192.168.1.1/hook',
    'http://169.254.169.254/',
    'http://0.0.0.0/hook',
    'http://100.64.0.1/',
    'http://[fc00::1]/',
  ])('%s is still refused (422 naming url)', async (url) => {
    await expectCreateRefused(open, url);
  });
});

describe('SSRF: connect-time guard after DNS', () => {
  const hostname = os.hostname();

  it("this machine's hostname resolves (through /etc/hosts) to loopback only, including 127.0.0.1", async () => {
    const addresses = (await dns.lookup(hostname, { all: true })).map((a) => a.address);
    expect(addresses).toContain('127.0.0.1');
    for (const a of addresses) expect(['127.0.0.1', '::1']).toContain(a);
  });

  it('without WEBHOOK_ALLOWED_CIDRS: the name is accepted at create, but nothing reaches it and the log says blocked', async () => {
    const receiver = await new Receiver().start();
    try {
      const port = new URL(receiver.url).port;
      const hook = await createHook(closedD, `http://${hostname}:${port}/hook`);
      const ping = await pingHook(closedD, hook.id);
      await settle(closedD, closedWorker);
      expect(receiver.received, 'neither the handshake nor any POST got through').toEqual([]);
      const [delivery, ...rest] = await deliveriesOf(closedD, hook.id);
      expect(rest).toEqual([]);
      expect(delivery).toMatchObject({ id: ping.id, event_id: ping.event_id, status: 'failed', attempts: 3 });
      expect(delivery.log).toHaveLength(3);
      for (const entry of delivery.log) {
        expect(entry, JSON.stringify(delivery.log)).toMatchObject({ outcome: 'blocked', status_code: null, response_body: null });
        expect(entry.error).toContain('127.0.0.1');
      }
      const row = await closedD.deps.db
        .selectFrom('webhooks')
        .select(['is_verified', 'verify_pending'])
        .where('id', '=', hook.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ is_verified: 0, verify_pending: 0 });
    } finally {
      await receiver.stop();
    }
  });

  it('with WEBHOOK_ALLOWED_CIDRS=127.0.0.1/32 the same name is delivered', async () => {
    const receiver = await new Receiver().start();
    try {
      const port = new URL(receiver.url).port;
      const hook = await createHook(openD, `http://${hostname}:${port}/hook`);
      const ping = await pingHook(openD, hook.id);
      await receiver.waitFor(1);
      await settle(openD, openWorker);
      expect(receiver.posts).toHaveLength(1);
      expect(receiver.posts[0]!.event?.id).toBe(ping.event_id);
      expect(receiver.posts[0]!.headers.host).toBe(`${hostname}:${port}`);
      Receiver.verify(receiver.posts[0]!, hook.signing_key);
      const [delivery] = await deliveriesOf(openD, hook.id);
      expect(delivery).toMatchObject({ id: ping.id, status: 'succeeded', attempts: 1 });
      expect(delivery.log).toEqual([expect.objectContaining({ outcome: 'success', status_code: 204, error: null })]);
    } finally {
      await receiver.stop();
    }
  });

  it('a blocked address stored before the range was closed is refused at delivery time too', async () => {
    // A webhook saved while WEBHOOK_ALLOWED_CIDRS was open keeps its URL; deliveries must still be refused.
    const receiver = await new Receiver().start();
    try {
      const port = new URL(receiver.url).port;
      for (const url of [receiver.url, `http://localhost:${port}/hook`, `http://[::ffff:127.0.0.1]:${port}/hook`]) {
        const hook = await createHook(closedD, `http://${hostname}:${port}/placeholder`);
        await closedD.deps.db.updateTable('webhooks').set({ url, verify_pending: 0 }).where('id', '=', hook.id).execute();
        await pingHook(closedD, hook.id);
        await settle(closedD, closedWorker);
        const [delivery] = await deliveriesOf(closedD, hook.id);
        expect(delivery.status, url).toBe('failed');
        expect(
          delivery.log.map((l: { outcome: string }) => l.outcome),
          url,
        ).toEqual(['blocked', 'blocked', 'blocked']);
      }
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.stop();
    }
  });
});

describe('SSRF: redirects are never followed', () => {
  let receiver: Receiver;
  let blocked: http.Server;
  let blockedHits: string[];
  let blockedPort = 0;
  beforeAll(async () => {
    blockedHits = [];
    // A real server on 127.0.0.2: loopback, outside WEBHOOK_ALLOWED_CIDRS=127.0.0.1/32.
    blocked = http.createServer((req, res) => {
      blockedHits.push(`${req.method} ${req.url}`);
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => blocked.listen(0, '127.0.0.2', resolve));
    blockedPort = (blocked.address() as AddressInfo).port;
    receiver = await new Receiver().start();
    receiver.respond = (req) => {
      if (req.path.includes('case=private')) return { status: 302, headers: { location: `http://127.0.0.2:${blockedPort}/steal` } };
      if (req.path.includes('case=metadata')) return { status: 307, headers: { location: 'http://169.254.169.254/latest/meta-data/' } };
      if (req.path.includes('case=self')) return { status: 308, headers: { location: `${receiver.url}?followed=1` } };
      return { status: 204 };
    };
  });
  afterAll(async () => {
    await receiver?.stop();
    blocked?.closeAllConnections();
    await new Promise<void>((resolve) => (blocked ? blocked.close(() => resolve()) : resolve()));
  });

  it.each([
    ['a blocked private address', 'private', 302],
    ['the metadata address', 'metadata', 307],
    ['even an allowed address', 'self', 308],
  ])('a redirect to %s is not followed: outcome redirect, one request per attempt', async (_label, name, status) => {
    const url = `${receiver.url}?case=${name}`;
    const hook = await createHook(openD, url);
    await pingHook(openD, hook.id);
    await settle(openD, openWorker);
    const [delivery] = await deliveriesOf(openD, hook.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3 });
    expect(delivery.log).toHaveLength(3);
    for (const entry of delivery.log) {
      expect(entry).toMatchObject({ outcome: 'redirect', status_code: status });
      expect(entry.error).toMatch(/not followed/);
    }
    expect(receiver.posts.filter((p) => p.path === `/hook?case=${name}`)).toHaveLength(3);
    expect(receiver.received.filter((p) => p.path.includes('followed'))).toEqual([]);
    expect(blockedHits).toEqual([]);
  });
});
