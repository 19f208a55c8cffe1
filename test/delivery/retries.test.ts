import { describe, expect, it } from 'vitest';
import type { Received, Receiver } from '../helpers/receiver.js';
import { createHook, deliveries, deliverySuite, waitUntil } from './_setup.js';

// docs/product.md §8: "Retries after 10 s, 100 s and 1000 s (configurable), with jitter", "429/503 Retry-After is
// honoured". The schedule lists the waits before each retry, so a schedule of three gives four attempts, and then
// the delivery is given up. Timing is checked on recorded receipt times and on the delivery log, with lower bounds
// (never earlier than promised) and generous upper bounds.

const ENV = { WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_POLL: '50ms' };
const SLACK_MS = 5; // clock granularity between the receiver's and the worker's Date.now()

const { setup, changeInstance } = deliverySuite(ENV);

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);
const posts = (r: Receiver) => r.posts;

describe('retry schedule', () => {
  it('retries after each wait of WEBHOOK_RETRY_SCHEDULE (never earlier than -10%), then gives up after the last retry', async () => {
    const schedule = [150, 300, 450];
    const {
      h,
      rx: [receiver],
    } = await setup({ WEBHOOK_RETRY_SCHEDULE: schedule.map((ms) => `${ms}ms`).join(',') });
    receiver!.respond = (req) => (req.method === 'POST' ? { status: 500, body: 'down for maintenance' } : { status: 204 });
    const hook = await createHook(h, { url: receiver!.url });
    const worker = await h.startWorker();
    await changeInstance(h);
    await receiver!.waitFor(4);

    const [d] = await waitUntil(async () => {
      const l = await deliveries(h, hook.id);
      return l[0]?.status !== 'pending' && l;
    }, 'the delivery to be given up');
    expect(d).toMatchObject({ status: 'failed', attempts: 4, next_attempt_at: null });
    expect(d!.completed_at).not.toBeNull();
    expect(d!.log.map((e) => [e.outcome, e.status_code, e.response_body])).toEqual(
      Array.from({ length: 4 }, () => ['http_error', 500, 'down for maintenance']),
    );
    // Nothing more is sent once it has been given up.
    await worker.idle();
    expect(posts(receiver!)).toHaveLength(4);
    expect(new Set(posts(receiver!).map((p) => p.headers['webhook-id'])).size).toBe(1);

    const received = gaps(posts(receiver!).map((p) => p.at));
    const logged = gaps(d!.log.map((e) => Date.parse(e.attempted_at)));
    schedule.forEach((ms, i) => {
      expect(received[i], `receipt gap before retry ${i + 1}`).toBeGreaterThanOrEqual(ms * 0.9 - SLACK_MS);
      expect(received[i], `receipt gap before retry ${i + 1}`).toBeLessThan(ms * 1.1 + 1000);
      expect(logged[i], `logged gap before retry ${i + 1}`).toBeGreaterThanOrEqual(ms * 0.9 - SLACK_MS);
      expect(logged[i], `logged gap before retry ${i + 1}`).toBeLessThan(ms * 1.1 + 1000);
    });
  });

  it('jitter: the planned wait stays within ±10% of the schedule and differs between deliveries', async () => {
    const {
      h,
      rx: [receiver],
    } = await setup({ WEBHOOK_RETRY_SCHEDULE: '10s,20s,30s' });
    receiver!.respond = (req) => (req.method === 'POST' ? { status: 503 } : { status: 204 });
    const hook = await createHook(h, { url: receiver!.url });
    const worker = await h.startWorker();
    const n = 12;
    for (let i = 0; i < n; i += 1) await changeInstance(h);
    await receiver!.waitFor(n);
    const log = await waitUntil(async () => {
      const l = await deliveries(h, hook.id);
      return l.length === n && l.every((d) => d.attempts === 1) && l;
    }, 'every delivery to record its first attempt');
    const planned: number[] = [];
    for (const d of log) {
      expect(d.status).toBe('pending');
      expect(d.log).toHaveLength(1);
      expect(d.log[0]).toMatchObject({ outcome: 'http_error', status_code: 503 });
      expect(d.next_attempt_at).not.toBeNull();
      const wait = Date.parse(d.next_attempt_at!) - Date.parse(d.log[0]!.attempted_at);
      // next_attempt_at is set after the answer, attempted_at before the request: allow the attempt's own duration.
      expect(wait).toBeGreaterThanOrEqual(9_000);
      expect(wait).toBeLessThanOrEqual(11_000 + d.log[0]!.duration_ms + 500);
      planned.push(wait);
    }
    // Without jitter every wait would be 10 s plus a few ms of processing; with ±10% they spread out.
    expect(Math.max(...planned) - Math.min(...planned)).toBeGreaterThan(100);
    await worker.idle();
    expect(posts(receiver!)).toHaveLength(n); // no retry came early
  });
});

describe('Retry-After', () => {
  it('is honoured on 429 (delta seconds) and 503 (HTTP date) even when the schedule is much shorter', async () => {
    const {
      h,
      rx: [r429, r503],
    } = await setup({ WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,50ms' }, 2);
    r429!.respond = (req) =>
      req.method !== 'POST'
        ? { status: 204 }
        : r429!.posts.length === 1
          ? { status: 429, headers: { 'retry-after': '1' }, body: 'slow down' }
          : { status: 204 };
    r503!.respond = (req) =>
      req.method !== 'POST'
        ? { status: 204 }
        : r503!.posts.length === 1
          ? { status: 503, headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() }, body: 'maintenance' }
          : { status: 204 };
    const hook429 = await createHook(h, { url: r429!.url });
    const hook503 = await createHook(h, { url: r503!.url });
    await h.startWorker();
    await changeInstance(h);
    await Promise.all([r429!.waitFor(1), r503!.waitFor(1)]);

    // While waiting, the log shows the first attempt and a next attempt no sooner than Retry-After says.
    for (const [hook, status, minWait] of [
      [hook429, 429, 1000],
      [hook503, 503, 1000],
    ] as const) {
      const [pending] = await waitUntil(async () => {
        const l = await deliveries(h, hook.id);
        return l[0]?.attempts === 1 && l;
      }, `the ${status} attempt to be logged`);
      expect(pending).toMatchObject({ status: 'pending', attempts: 1 });
      expect(pending!.log[0]).toMatchObject({ outcome: 'http_error', status_code: status });
      expect(Date.parse(pending!.next_attempt_at!) - Date.parse(pending!.log[0]!.attempted_at)).toBeGreaterThanOrEqual(minWait - SLACK_MS);
    }

    await Promise.all([r429!.waitFor(2), r503!.waitFor(2)]);
    const [a1, a2] = posts(r429!) as [Received, Received];
    const [b1, b2] = posts(r503!) as [Received, Received];
    expect(a2.at - a1.at, '429 Retry-After: 1').toBeGreaterThanOrEqual(1000 - SLACK_MS);
    expect(a2.at - a1.at).toBeLessThan(3000);
    // An HTTP date has whole seconds: now + 2 s truncated is more than 1 s away.
    expect(b2.at - b1.at, '503 Retry-After: <date>').toBeGreaterThanOrEqual(1000 - SLACK_MS);
    expect(b2.at - b1.at).toBeLessThan(4000);
    expect(a2.headers['webhook-id']).toBe(a1.headers['webhook-id']);

    for (const [hook, status, body] of [
      [hook429, 429, 'slow down'],
      [hook503, 503, 'maintenance'],
    ] as const) {
      const [d] = await waitUntil(async () => {
        const l = await deliveries(h, hook.id);
        return l[0]?.status === 'succeeded' && l;
      }, 'the retry to succeed');
      expect(d!.attempts).toBe(2);
      expect(d!.log.map((e) => [e.outcome, e.status_code, e.response_body])).toEqual([
        ['http_error', status, body],
        ['success', 204, ''],
      ]);
    }
  });

  it('a 429 or 503 answer still counts as an attempt: the delivery is given up after the last retry', async () => {
    const {
      h,
      rx: [receiver],
    } = await setup({ WEBHOOK_RETRY_SCHEDULE: '50ms,50ms' });
    receiver!.respond = (req) =>
      req.method !== 'POST' ? { status: 204 } : { status: receiver!.posts.length % 2 === 1 ? 429 : 503, headers: { 'retry-after': '0' } };
    const hook = await createHook(h, { url: receiver!.url });
    const worker = await h.startWorker();
    await changeInstance(h);
    const [d] = await waitUntil(async () => {
      const l = await deliveries(h, hook.id);
      return l[0] && l[0].status !== 'pending' && l;
    }, 'the delivery to be given up');
    expect(d).toMatchObject({ status: 'failed', attempts: 3, next_attempt_at: null });
    expect(d!.log.map((e) => e.status_code)).toEqual([429, 503, 429]);
    await worker.idle();
    expect(posts(receiver!)).toHaveLength(3);
  });
});
