import { describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { createHook, deliveries, deliverySuite, getHook, waitUntil } from './_setup.js';

// docs/product.md §8: "Success is 2xx within the timeout; redirects are never followed; 410 disables the webhook"; "a
// webhook failing without a success for a sustained period (configurable) is disabled and that is visible in its
// delivery log". Checked against real HTTP receivers, the delivery log and the webhooks row.

const ENV = {
  WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
  WEBHOOK_RETRY_SCHEDULE: '50ms,100ms,150ms',
  WEBHOOK_TIMEOUT_MS: '300',
  WEBHOOK_DISABLE_AFTER: '1h',
  WEBHOOK_POLL: '50ms', // the sustained-failure tests set their own period
};

const { setup, receivers, changeInstance } = deliverySuite(ENV);

const hookRow = (hh: Harness, id: string) =>
  hh.deps.db.selectFrom('webhooks').select(['is_enabled', 'disabled_reason']).where('id', '=', id).executeTakeFirstOrThrow();

const settled = (hh: Harness, hookId: string, what = 'the delivery to finish') =>
  waitUntil(async () => {
    const l = await deliveries(hh, hookId);
    return l.length > 0 && l.every((d) => d.status !== 'pending') && l;
  }, what);

describe('timeouts', () => {
  it('an answer within WEBHOOK_TIMEOUT_MS succeeds; a slower one is a timeout (not waited for) and is retried', async () => {
    const {
      h,
      rx: [receiver],
    } = await setup();
    // 1st POST: answered in time; 2nd: answered after 900 ms (timeout 300 ms); 3rd: at once.
    receiver!.respond = (req) => {
      if (req.method !== 'POST') return { status: 204 };
      const n = receiver!.posts.length;
      return n === 1 ? { status: 200, body: 'quick', delayMs: 50 } : n === 2 ? { status: 204, delayMs: 900 } : { status: 204 };
    };
    const hook = await createHook(h, { url: receiver!.url });
    const worker = await h.startWorker();
    await changeInstance(h);
    await receiver!.waitFor(1);
    await worker.idle();
    const [fast] = await deliveries(h, hook.id);
    expect(fast).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(fast!.log[0]).toMatchObject({ outcome: 'success', status_code: 200, response_body: 'quick' });

    await changeInstance(h);
    await receiver!.waitFor(3);
    const [slow] = (await settled(h, hook.id)).filter((d) => d.id !== fast!.id);
    expect(slow).toMatchObject({ status: 'succeeded', attempts: 2 });
    const [timedOut, retried] = slow!.log;
    expect(timedOut).toMatchObject({ outcome: 'timeout', status_code: null, response_body: null });
    expect(timedOut!.error).toMatch(/300/);
    expect(timedOut!.duration_ms).toBeGreaterThanOrEqual(250);
    expect(timedOut!.duration_ms).toBeLessThan(850); // it gave up at the timeout, not when the answer came
    expect(retried).toMatchObject({ outcome: 'success', status_code: 204 });
    const [p2, p3] = receiver!.posts.slice(1);
    expect(p3!.headers['webhook-id']).toBe(p2!.headers['webhook-id']);
  });

  it('a receiver that never answers in time exhausts the retries and the delivery fails', async () => {
    const {
      h,
      rx: [receiver],
    } = await setup({ WEBHOOK_RETRY_SCHEDULE: '50ms' });
    receiver!.respond = (req) => (req.method === 'POST' ? { status: 204, delayMs: 600 } : { status: 204 });
    const hook = await createHook(h, { url: receiver!.url });
    await h.startWorker();
    await changeInstance(h);
    const [d] = await settled(h, hook.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 2, next_attempt_at: null });
    expect(d!.log.map((e) => e.outcome)).toEqual(['timeout', 'timeout']);
  });

  it('a refused connection is a network error and is retried', async () => {
    const {
      h,
      rx: [gone],
    } = await setup({ WEBHOOK_RETRY_SCHEDULE: '50ms' });
    const deadUrl = gone!.url;
    await gone!.stop();
    receivers.splice(receivers.indexOf(gone!), 1);
    const hook = await createHook(h, { url: deadUrl });
    await h.startWorker();
    await changeInstance(h);
    const [d] = await settled(h, hook.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 2 });
    expect(d!.log.map((e) => [e.outcome, e.status_code])).toEqual([
      ['network_error', null],
      ['network_error', null],
    ]);
    expect(d!.log[0]!.error).toBeTruthy();
  });
});

describe('HTTP answers', () => {
  it('only 2xx is success: 4xx and 5xx are failures that are retried, and the log keeps the first KiB of each answer', async () => {
    const {
      h,
      rx: [receiver],
    } = await setup();
    const big = 'E'.repeat(600) + 'F'.repeat(3000);
    const answers = [
      { status: 400, body: 'bad request' },
      { status: 404, body: 'no such hook' },
      { status: 500, body: big },
      { status: 202, body: 'accepted' },
    ];
    receiver!.respond = (req) => (req.method === 'POST' ? (answers[receiver!.posts.length - 1] ?? { status: 204 }) : { status: 204 });
    const hook = await createHook(h, { url: receiver!.url });
    await h.startWorker();
    await changeInstance(h);
    const [d] = await settled(h, hook.id);
    expect(d).toMatchObject({ status: 'succeeded', attempts: 4 });
    expect(d!.log.map((e) => [e.outcome, e.status_code])).toEqual([
      ['http_error', 400],
      ['http_error', 404],
      ['http_error', 500],
      ['success', 202],
    ]);
    expect(d!.log[0]!.response_body).toBe('bad request');
    expect(d!.log[1]!.response_body).toBe('no such hook');
    expect(d!.log[2]!.response_body).toBe(big.slice(0, 1024));
    expect(d!.log[3]!.response_body).toBe('accepted');
    expect(receiver!.posts).toHaveLength(4);
  });

  it('redirects are never followed: 301, 302, 307 and 308 are failures and the target gets nothing', async () => {
    const {
      h,
      rx: [receiver, target],
    } = await setup({}, 2);
    const codes = [301, 302, 307, 308];
    receiver!.respond = (req) =>
      req.method === 'POST'
        ? { status: codes[receiver!.posts.length - 1] ?? 302, headers: { location: target!.url }, body: 'moved' }
        : { status: 204 };
    const hook = await createHook(h, { url: receiver!.url });
    const worker = await h.startWorker();
    await changeInstance(h);
    const [d] = await settled(h, hook.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 4 });
    expect(d!.log.map((e) => [e.outcome, e.status_code])).toEqual(codes.map((c) => ['redirect', c]));
    for (const e of d!.log) {
      expect(e.error).toContain(target!.url);
      expect(e.error).toMatch(/not followed/);
    }
    await worker.idle();
    expect(receiver!.posts).toHaveLength(4);
    expect(target!.received).toHaveLength(0);
  });
});

describe('410 Gone', () => {
  it('disables the webhook at once, without retrying; the log and the row say why; re-enabling delivers again', async () => {
    const {
      h,
      rx: [receiver],
    } = await setup();
    receiver!.respond = (req) => (req.method === 'POST' ? { status: 410, body: 'this hook is gone' } : { status: 204 });
    const hook = await createHook(h, { url: receiver!.url });
    const worker = await h.startWorker();
    await changeInstance(h);
    const [d] = await settled(h, hook.id);
    await worker.idle();
    expect(d).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null });
    expect(d!.log).toHaveLength(2);
    expect(d!.log[0]).toMatchObject({ outcome: 'http_error', status_code: 410, response_body: 'this hook is gone' });
    expect(d!.log[1]!.outcome).toBe('webhook_disabled');
    expect(d!.log[1]!.error).toMatch(/410/);
    expect(receiver!.posts).toHaveLength(1);

    expect((await getHook(h, hook.id)).is_enabled).toBe(false);
    const row = await hookRow(h, hook.id);
    expect(row.is_enabled).toBe(0);
    expect(row.disabled_reason).toMatch(/410/);

    // Disabled: later events are not queued for it, nothing is sent.
    await changeInstance(h);
    await worker.idle();
    expect(await deliveries(h, hook.id)).toHaveLength(1);
    expect(receiver!.posts).toHaveLength(1);

    // Re-enabled by a user: the reason is cleared and the next event is delivered.
    receiver!.respond = () => ({ status: 204 });
    const put = await h.call(h.a.admin.token, { method: 'PUT', url: `/webhooks/${hook.id}`, payload: { is_enabled: true } });
    expect(put.statusCode, put.body).toBe(200);
    expect((await hookRow(h, hook.id)).disabled_reason).toBeNull();
    await changeInstance(h);
    await receiver!.waitFor(2);
    await worker.idle();
    expect((await deliveries(h, hook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect((await getHook(h, hook.id)).is_enabled).toBe(true);
  });
});

describe('sustained failure', () => {
  it('disables a webhook that has not succeeded for WEBHOOK_DISABLE_AFTER, and the delivery log says why', async () => {
    const {
      h,
      rx: [receiver],
    } = await setup({ WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms,100ms,100ms,100ms,100ms', WEBHOOK_DISABLE_AFTER: '300ms' });
    receiver!.respond = (req) => (req.method === 'POST' ? { status: 500, body: 'broken' } : { status: 204 });
    const hook = await createHook(h, { url: receiver!.url });
    const worker = await h.startWorker();
    await changeInstance(h);
    await waitUntil(async () => !(await getHook(h, hook.id)).is_enabled, 'the webhook to be disabled');
    const [d] = await settled(h, hook.id);
    await worker.idle();

    const log = d!.log;
    const disabledAt = log.findIndex((e) => e.outcome === 'webhook_disabled');
    expect(disabledAt, JSON.stringify(log)).toBeGreaterThan(0);
    const tries = log.filter((e) => e.outcome !== 'webhook_disabled');
    expect(tries.every((e) => e.outcome === 'http_error' && e.status_code === 500)).toBe(true);
    // Not before the period had passed since the first failure, and at the first attempt after it.
    const firstFailure = Date.parse(log[0]!.attempted_at);
    expect(Date.parse(log[disabledAt]!.attempted_at) - firstFailure).toBeGreaterThanOrEqual(300 - 20);
    const before = log.slice(0, disabledAt - 1);
    for (const e of before) expect(Date.parse(e.attempted_at) - firstFailure).toBeLessThan(300);
    expect(log.filter((e) => e.outcome === 'webhook_disabled')).toHaveLength(1);
    // The log says why, naming when the failures began.
    expect(log[disabledAt]!.error).toMatch(/no successful delivery since/);
    expect(log[disabledAt]!.error).toContain(log[0]!.attempted_at);

    const row = await hookRow(h, hook.id);
    expect(row.is_enabled).toBe(0);
    expect(row.disabled_reason).toBe(log[disabledAt]!.error);
    // Nothing was sent after it was disabled; the retry that was planned is not sent.
    expect(d!.status).not.toBe('succeeded');
    expect(receiver!.posts).toHaveLength(tries.length);
    expect(tries.length).toBeLessThan(8);
  });

  it('a success restarts the clock: failures spread over more than WEBHOOK_DISABLE_AFTER, each followed by a success, do not disable', async () => {
    const {
      h,
      rx: [receiver],
    } = await setup({ WEBHOOK_RETRY_SCHEDULE: '120ms', WEBHOOK_DISABLE_AFTER: '300ms' });
    // Each event fails once, then its retry succeeds.
    const seen = new Set<string>();
    receiver!.respond = (req) => {
      if (req.method !== 'POST') return { status: 204 };
      const id = String(req.headers['webhook-id']);
      if (seen.has(id)) return { status: 204 };
      seen.add(id);
      return { status: 503, body: 'blip' };
    };
    const hook = await createHook(h, { url: receiver!.url });
    const worker = await h.startWorker();
    const cycles = 4;
    for (let i = 1; i <= cycles; i += 1) {
      await changeInstance(h);
      await receiver!.waitFor(2 * i);
      await worker.idle();
    }
    const posts = receiver!.posts;
    expect(posts).toHaveLength(2 * cycles);
    // The test only means something if the failures spanned more than the disable period.
    expect(posts[posts.length - 2]!.at - posts[0]!.at).toBeGreaterThan(300);
    const log = await settled(h, hook.id);
    expect(log).toHaveLength(cycles);
    for (const d of log) {
      expect(d).toMatchObject({ status: 'succeeded', attempts: 2 });
      expect(d.log.map((e) => e.outcome)).toEqual(['http_error', 'success']);
    }
    expect((await getHook(h, hook.id)).is_enabled).toBe(true);
    expect((await hookRow(h, hook.id)).disabled_reason).toBeNull();
  });
});
