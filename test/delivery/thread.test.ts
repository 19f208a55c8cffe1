import { describe, expect, it, onTestFinished } from 'vitest';
import { createThreadSender } from '../../src/delivery/thread-sender.js';
import { createWorker } from '../../src/delivery/worker.js';
import { loadConfig } from '../../src/shared/config.js';
import { TEST_ENV } from '../helpers/harness.js';
import { Receiver } from '../helpers/receiver.js';
import { createHook, deliveries, deliverySuite, waitUntil } from './_setup.js';

// Deliveries are signed and sent in a worker thread (src/delivery/thread-sender.ts, docs/decisions/0017-delivery-thread.md):
// the SSRF refusals hold there, a thread that dies costs only what it had in flight (sent again after its lease,
// at-least-once) and is replaced, and nothing it logs carries a signing key.

// Lease = max(WEBHOOK_LEASE, 2 × timeout + 1 s) = 5 s; a 2 s timeout keeps a loaded machine from timing out answers.
const ENV = { WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_POLL: '100ms', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_LEASE: '1s' };
const { setup, receiver, changeInstance, stopFirst } = deliverySuite(ENV);

type Entry = { level: string; obj: Record<string, unknown>; msg: string };
function recordingLog() {
  const entries: Entry[] = [];
  const at = (level: string) => (obj: unknown, msg?: string) => {
    entries.push({ level, obj: obj as Record<string, unknown>, msg: msg ?? '' });
  };
  return { entries, log: { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') } };
}

const KEY = `whsec_${Buffer.from('a signing key for the thread test').toString('base64')}`;
const message = (url: string, keys: string[] = []) => ({
  url,
  messageId: 'msg_thread_test',
  payload: JSON.stringify({
    specversion: '1.0',
    id: 'msg_thread_test',
    source: 'https://labstock.test',
    type: 't',
    time: new Date().toISOString(),
  }),
  format: 'json' as const,
  keys,
});

describe('the delivery thread', () => {
  it('signs and sends there; the SSRF refusals hold on it', async () => {
    const rx = await receiver();
    rx.respond = (req) => (req.method === 'OPTIONS' ? { status: 200, headers: { 'webhook-allowed-origin': '*' } } : { status: 204 });
    const { log } = recordingLog();
    const closed = createThreadSender({ webhookTimeoutMs: 2000, webhookAllowedCidrs: [] }, log);
    const open = createThreadSender({ webhookTimeoutMs: 2000, webhookAllowedCidrs: ['127.0.0.1/32'] }, log);
    onTestFinished(() => Promise.all([closed.close(), open.close()]).then(() => undefined));
    await Promise.all([closed.start(), open.start()]);

    const port = new URL(rx.url).port;
    for (const url of [rx.url, `http://localhost:${port}/hook`, `http://[::ffff:127.0.0.1]:${port}/hook`]) {
      const refused = await closed.send(message(url, [KEY]));
      expect(refused.outcome, url).toBe('blocked');
    }
    expect((await closed.handshake(rx.url, 'https://labstock.test')).ok).toBe(false);
    expect(rx.received).toHaveLength(0);

    const sent = await open.send(message(rx.url, [KEY]));
    expect(sent).toMatchObject({ outcome: 'success', statusCode: 204, error: null });
    expect(rx.posts).toHaveLength(1);
    expect(() => Receiver.verify(rx.posts[0]!, KEY)).not.toThrow();
    expect(rx.posts[0]!.headers['user-agent']).toMatch(/^Labstock-Webhooks\//);
    expect(await open.handshake(rx.url, 'https://labstock.test')).toEqual({ ok: true, detail: 'verified' });
  });

  it('a thread that dies fails what it had in flight, says so in the log, and a new one sends the next', async () => {
    const rx = await receiver();
    rx.respond = () => ({ status: 204, delayMs: rx.posts.length === 1 ? 10_000 : 0 });
    const { entries, log } = recordingLog();
    const sender = createThreadSender({ webhookTimeoutMs: 20_000, webhookAllowedCidrs: ['127.0.0.1/32'] }, log);
    onTestFinished(() => sender.close());
    await sender.start();

    const hanging = sender.send(message(rx.url, [KEY]));
    await waitUntil(async () => rx.received.length >= 1, 'the first request to arrive');
    await sender.kill();
    await expect(hanging).rejects.toThrow(/delivery thread exited/);
    expect(entries.filter((e) => e.level === 'error').map((e) => e.msg)).toContain(
      'the delivery thread exited; its deliveries are sent again after their lease',
    );
    expect(entries.find((e) => e.level === 'error')?.obj).toMatchObject({ inFlight: 1 });

    const next = await waitUntil(() => sender.send(message(rx.url, [KEY])).catch(() => null), 'a new thread to send');
    expect(next.outcome).toBe('success');
    expect(JSON.stringify(entries)).not.toContain(KEY.slice(6));
  });

  it('a thread that cannot start fails the start loudly, and the worker with it', async () => {
    const { h } = await setup();
    const { entries, log } = recordingLog();
    // Settings the configuration would refuse: the thread throws while it sets up its sender.
    const broken = createThreadSender({ webhookTimeoutMs: 1000, webhookAllowedCidrs: ['not a range'] }, log);
    await expect(broken.start()).rejects.toThrow(/exited \(code 1\) before it was ready/);
    expect(entries.map((e) => e.msg)).toContain('the delivery thread failed');

    const config = loadConfig({ ...TEST_ENV, ...ENV, DATABASE_URL: h.database.url });
    const sender = createThreadSender({ webhookTimeoutMs: 1000, webhookAllowedCidrs: ['not a range'] }, log);
    const worker = createWorker({ db: h.deps.db, config, log, sender, pgSchema: h.database.pgSchema });
    await expect(worker.start()).rejects.toThrow(/before it was ready/);
    await worker.stop(); // already stopped by the failed start: nothing left running
  });

  it('after close the thread is gone and sends fail at once', async () => {
    const { log } = recordingLog();
    const sender = createThreadSender({ webhookTimeoutMs: 2000, webhookAllowedCidrs: ['127.0.0.1/32'] }, log);
    await sender.start();
    await sender.close();
    await expect(sender.send(message('http://127.0.0.1:9/hook'))).rejects.toThrow(/closed/);
  });
});

describe('a worker whose delivery thread dies mid-attempt', () => {
  it('sends that delivery again after its lease, records one attempt, and goes on delivering meanwhile', async () => {
    const {
      h,
      rx: [rx],
    } = await setup();
    // The first request hangs past the timeout: unless the thread dies first, a 'timeout' attempt would be logged.
    rx!.respond = (req) => {
      if (req.method !== 'POST') return { status: 200, headers: { 'webhook-allowed-origin': '*' } }; // the handshake
      return { status: 204, delayMs: rx!.posts.length === 1 ? 10_000 : 0 };
    };
    const hook = await createHook(h, { url: rx!.url, event_types: ['com.labstock.inventory-item.updated'] });
    const { entries, log } = recordingLog();
    const config = loadConfig({ ...TEST_ENV, ...ENV, DATABASE_URL: h.database.url });
    const sender = createThreadSender(config, log);
    const worker = createWorker({ db: h.deps.db, config, log, sender, pgSchema: h.database.pgSchema });
    stopFirst(() => worker.stop());
    await worker.start();

    await changeInstance(h);
    await waitUntil(async () => rx!.posts.length >= 1, 'the first attempt to reach the receiver');
    const killedAt = Date.now();
    await sender.kill();
    await waitUntil(
      async () => entries.some((e) => e.msg.startsWith('delivery attempt failed unexpectedly')),
      'the lost attempt to be logged',
    );

    // A new thread delivers the next change at once, while the first delivery waits for its lease (5 s here).
    await changeInstance(h);
    const done = await waitUntil(async () => {
      const list = await deliveries(h, hook.id);
      return list.length === 2 && list.every((d) => d.status === 'succeeded') && list;
    }, 'both deliveries to succeed');
    const first = rx!.posts[0]!.event!.id;
    const firstSent = rx!.posts.filter((p) => p.event?.id === first);
    const secondSent = rx!.posts.filter((p) => p.event?.id !== first);
    expect(firstSent, 'the lost attempt is sent again (at-least-once)').toHaveLength(2);
    expect(secondSent).toHaveLength(1);
    expect(firstSent[1]!.at, 'after the next change: it waited for its lease').toBeGreaterThan(secondSent[0]!.at);
    expect(firstSent[1]!.at - killedAt, 'sent again after the lease, not before').toBeGreaterThanOrEqual(2500);
    for (const d of done) {
      expect(d.attempts).toBe(1);
      expect(d.log.map((l) => l.outcome)).toEqual(['success']);
    }
    expect(JSON.stringify(entries)).not.toContain(hook.signing_key.slice(6));
  });
});
