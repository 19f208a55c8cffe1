import { describe, expect, it } from 'vitest';
import { createWorker } from '../../src/delivery/worker.js';
import { emitEvents } from '../../src/events/outbox.js';
import { loadConfig } from '../../src/shared/config.js';
import { openDatabase } from '../../src/shared/db/database.js';
import { TEST_ENV } from '../helpers/harness.js';
import type { Receiver } from '../helpers/receiver.js';
import { createHook, createHookAs, deliverySuite, isClaim, waitUntil } from './_setup.js';

// One receiver that never answers must delay only its own deliveries. Once, its backlog took every one of the
// worker's WEBHOOK_CONCURRENCY slots and every other webhook (of any organization) waited for its timeouts:
// commit-to-receipt went from milliseconds to seconds. Here the hanging webhook has a backlog (events, then an org
// admin's replay of them) while a healthy webhook of another organization and one of the same organization receive
// 50 events; each must arrive far sooner than the hang's timeout. The default settings are the ones under test.

const TIMEOUT_MS = 2000;
const POLL_MS = 1000;
const ENV = {
  WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
  WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
  WEBHOOK_POLL: `${POLL_MS}ms`,
  // A timed-out attempt is not retried within the test: the backlog alone keeps the hanging webhook busy.
  WEBHOOK_RETRY_SCHEDULE: '60s',
};
const TYPE = 'com.labstock.inventory-item.updated';
const BACKLOG = 50;
const HEALTHY_EVENTS = 50;
const { setup, changeInstance, stopFirst } = deliverySuite(ENV);
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

describe('a hanging webhook beside healthy ones', () => {
  it('delays only itself: the healthy webhooks of another and of the same organization get every event promptly', async () => {
    const {
      h,
      rx: [slow, healthyB, healthyA],
    } = await setup({}, 3);
    // Never answers a POST before the attempt's timeout (the handshake's OPTIONS is answered).
    slow!.respond = (req) => (req.method === 'POST' ? { status: 204, delayMs: 4 * TIMEOUT_MS } : { status: 204 });
    await changeInstance(h); // an event before the backlog, so the replay range below starts after it
    const slowHook = await createHook(h, { url: slow!.url, event_types: [TYPE] });

    // The backlog: 50 events of org A to the hanging webhook, then an org admin replays them (50 more deliveries).
    const emit = (org: typeof h.a, n: number) =>
      h.deps.db.transaction().execute((trx) =>
        emitEvents(
          trx,
          h.config,
          Array.from({ length: n }, (_, i) => ({
            type: 'inventory-item.updated' as const,
            organizationId: org.orgId,
            labId: org.migratedLab.id,
            resource: { id: org.migratedLab.itemId, seq: i },
          })),
        ),
      );
    const from = new Date().toISOString();
    await emit(h.a, BACKLOG);
    const replayed = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/webhooks/${slowHook.id}/replay`,
      payload: { from, to: new Date().toISOString() },
    });
    expect(replayed.statusCode, replayed.body).toBe(202);
    expect(replayed.json()).toEqual({ scheduled: BACKLOG });

    // The worker runs on its own connection, whose claims are counted (see the end of the test).
    const claims: number[] = [];
    const counted = openDatabase(h.config.database, {
      pgSchema: h.database.pgSchema,
      poolSize: 3,
      onQuery: (text) => {
        if (isClaim(text)) claims.push(Date.now());
      },
    });
    const config = loadConfig({ ...TEST_ENV, ...ENV, DATABASE_URL: h.database.url });
    const worker = createWorker({ db: counted.db, config, log: silent, pgSchema: h.database.pgSchema });
    stopFirst(async () => {
      await worker.stop(); // waits for the hanging attempts' timeouts
      await counted.close();
    });
    await worker.start();
    await slow!.waitFor(1, 5000);
    await new Promise((r) => setTimeout(r, 100)); // the worker has taken what it will of the backlog

    const hookB = await createHookAs(h, h.b.admin.token, { organization_id: h.b.orgId, url: healthyB!.url, event_types: [TYPE] });
    const hookA = await createHookAs(h, h.a.admin.token, { lab_id: h.a.migratedLab.id, url: healthyA!.url, event_types: [TYPE] });
    expect(hookB.id).not.toBe(hookA.id);

    // 50 events, one transaction each, every 20 ms: alternately org B's (healthy B) and org A's (healthy A and
    // the hanging webhook, whose backlog grows).
    const committedAt = new Map<string, number>();
    for (let i = 0; i < HEALTHY_EVENTS; i += 1) {
      const [event] = await emit(i % 2 === 0 ? h.b : h.a, 1);
      committedAt.set(event!.id, Date.now());
      await new Promise((r) => setTimeout(r, 20));
    }
    const half = HEALTHY_EVENTS / 2;
    await Promise.all([healthyB!.waitFor(half, 20_000), healthyA!.waitFor(half, 20_000)]);
    const latencies = (r: Receiver) =>
      r.posts.map((p) => {
        const committed = committedAt.get(String(p.headers['webhook-id']));
        expect(committed, 'an event this test committed').toBeDefined();
        return p.at - committed!;
      });
    const ofB = latencies(healthyB!);
    const ofA = latencies(healthyA!);
    const all = [...ofB, ...ofA];
    const line = (xs: number[]) => `p50 ${pct(xs, 50)} ms, max ${Math.max(...xs)} ms`;
    console.info(
      `[fairness] commit-to-receipt beside a hanging webhook (timeout ${TIMEOUT_MS} ms): other org ${line(ofB)}; same org ${line(ofA)}`,
    );
    expect(ofB).toHaveLength(half);
    expect(ofA).toHaveLength(half);
    // The hang costs at least TIMEOUT_MS to whatever waits behind it; the healthy path takes milliseconds.
    expect(Math.max(...all), 'the slowest healthy delivery').toBeLessThan(TIMEOUT_MS / 2);
    expect(pct(all, 50), 'the median healthy delivery').toBeLessThan(200);

    // The hanging webhook still holds no more than its share of the worker, and it has been served meanwhile.
    await waitUntil(async () => {
      const rows = await h.deps.db
        .selectFrom('webhook_deliveries')
        .select(['status'])
        .where('webhook_id', 'in', [hookA.id, hookB.id])
        .execute();
      return rows.length === HEALTHY_EVENTS && rows.every((d) => d.status === 'succeeded');
    }, 'the healthy deliveries to be recorded');
    const leased = await h.deps.db.selectFrom('webhook_deliveries').select(['webhook_id']).where('leased_by', 'is not', null).execute();
    expect(leased.filter((d) => d.webhook_id !== slowHook.id)).toEqual([]);
    expect(leased.length).toBeLessThanOrEqual(config.webhookConcurrencyPerEndpoint);
    expect(slow!.posts.length).toBeGreaterThan(0);

    // Everything due now belongs to the hanging webhook, at its limit: the worker must sleep until an attempt
    // ends (or its poll), not claim in a loop.
    const windowStart = Date.now();
    await new Promise((r) => setTimeout(r, 1500));
    const during = claims.filter((t) => t >= windowStart).length;
    expect(during, `${during} claims in 1500 ms while only capped work was due`).toBeLessThanOrEqual(10);
    const pending = await waitUntil(async () => {
      const row = await h.deps.db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('webhook_id', '=', slowHook.id)
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    }, 'the hanging webhook to have a backlog');
    expect(pending, 'the hanging webhook still has most of its backlog').toBeGreaterThan(BACKLOG);
  }, 30_000);
});

// Two or three receivers that hang at once, each with a backlog, took every slot again: 8 + 8 of 16 by default.
// A webhook whose attempts hang is moved to the slow lane once one of them times out (slots.ts): slow webhooks
// share max(1, WEBHOOK_CONCURRENCY / 4) attempts in flight, one each. Until a webhook has shown it hangs, it holds
// its per-webhook share for one timeout, so the healthy traffic starts once every hanging webhook has timed out.
// The second case has more slow webhooks than the lane has room for (3 of 2), so the claim must share the lane.
describe('several hanging webhooks at once beside a healthy one', () => {
  it.each([
    { name: 'two hanging webhooks, default settings', env: {}, hanging: 2 },
    { name: 'three hanging webhooks sharing a lane of 2 (WEBHOOK_CONCURRENCY=8)', env: { WEBHOOK_CONCURRENCY: '8' }, hanging: 3 },
  ])(
    '$name: the healthy webhook gets every event promptly, the hanging ones hold no more than the lane',
    async ({ env, hanging }) => {
      const {
        h,
        rx: [healthy, ...hangers],
      } = await setup({}, 1 + hanging);
      for (const r of hangers) r.respond = (req) => (req.method === 'POST' ? { status: 204, delayMs: 4 * TIMEOUT_MS } : { status: 204 });
      // One hanging webhook in each organization; a third, lab-scoped in org A.
      const [hangA, hangB, hangLab] = hangers;
      const slowHooks = [
        await createHookAs(h, h.a.admin.token, { organization_id: h.a.orgId, url: hangA!.url, event_types: [TYPE] }),
        await createHookAs(h, h.b.admin.token, { organization_id: h.b.orgId, url: hangB!.url, event_types: [TYPE] }),
        ...(hangLab ? [await createHookAs(h, h.a.admin.token, { lab_id: h.a.migratedLab.id, url: hangLab.url, event_types: [TYPE] })] : []),
      ];
      const slowIds = slowHooks.map((s) => s.id);
      const emit = (org: typeof h.a, n: number) =>
        h.deps.db.transaction().execute((trx) =>
          emitEvents(
            trx,
            h.config,
            Array.from({ length: n }, (_, i) => ({
              type: 'inventory-item.updated' as const,
              organizationId: org.orgId,
              labId: org.migratedLab.id,
              resource: { id: org.migratedLab.itemId, seq: i },
            })),
          ),
        );
      await emit(h.a, BACKLOG);
      await emit(h.b, BACKLOG);

      const claims: number[] = [];
      let laneClaims = 0; // claims that shared the lane among more slow webhooks than it had room for
      const counted = openDatabase(h.config.database, {
        pgSchema: h.database.pgSchema,
        poolSize: 3,
        onQuery: (text) => {
          if (!isClaim(text)) return;
          claims.push(Date.now());
          if (/partition by case when/i.test(text)) laneClaims += 1;
        },
      });
      const config = loadConfig({ ...TEST_ENV, ...ENV, ...env, DATABASE_URL: h.database.url });
      const lane = Math.max(1, Math.floor(config.webhookConcurrency / 4));
      const worker = createWorker({ db: counted.db, config, log: silent, pgSchema: h.database.pgSchema });
      stopFirst(async () => {
        await worker.stop();
        await counted.close();
      });
      await worker.start();
      const hangingLeases = async () =>
        (
          await h.deps.db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('webhook_id', 'in', slowIds)
            .where('leased_by', 'is not', null)
            .execute()
        ).length;
      // Every hanging webhook has had an attempt time out; then the worker holds no more of theirs than the lane.
      await waitUntil(
        async () => {
          const timedOut = await h.deps.db
            .selectFrom('webhook_attempts')
            .select('webhook_id')
            .distinct()
            .where('webhook_id', 'in', slowIds)
            .where('outcome', '=', 'timeout')
            .execute();
          return timedOut.length === slowIds.length;
        },
        'every hanging webhook to have timed out once',
        6 * TIMEOUT_MS,
      );
      let leasedNow = 0;
      await waitUntil(
        async () => (leasedNow = await hangingLeases()) <= lane || null,
        `the hanging webhooks to hold at most the lane's ${lane} attempts (held ${leasedNow})`,
        TIMEOUT_MS,
      ).catch(() => expect(leasedNow, 'attempts in flight to the hanging webhooks once all have timed out').toBeLessThanOrEqual(lane));

      const hook = await createHookAs(h, h.b.admin.token, { organization_id: h.b.orgId, url: healthy!.url, event_types: [TYPE] });
      // Meanwhile the hanging webhooks' leases are read every 25 ms: together never more than the lane.
      let most = 0;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          most = Math.max(most, await hangingLeases());
          await new Promise((r) => setTimeout(r, 25));
        }
      })();
      const committedAt = new Map<string, number>();
      for (let i = 0; i < HEALTHY_EVENTS; i += 1) {
        const [event] = await emit(h.b, 1); // to the healthy webhook and org B's hanging one
        committedAt.set(event!.id, Date.now());
        await new Promise((r) => setTimeout(r, 20));
      }
      await healthy!.waitFor(HEALTHY_EVENTS, 20_000);
      await waitUntil(async () => {
        const rows = await h.deps.db.selectFrom('webhook_deliveries').select('status').where('webhook_id', '=', hook.id).execute();
        return rows.length === HEALTHY_EVENTS && rows.every((d) => d.status === 'succeeded');
      }, 'the healthy deliveries to be recorded');
      // Everything due now belongs to the hanging webhooks, in the lane: the worker claims once an attempt of theirs
      // ends (about one claim per slow attempt, and its poll), never in a loop.
      const windowStart = Date.now();
      await new Promise((r) => setTimeout(r, 1500));
      sampling = false;
      await sampler;
      const during = claims.filter((t) => t >= windowStart).length;

      const all = healthy!.posts.map((p) => p.at - committedAt.get(String(p.headers['webhook-id']))!);
      console.info(
        `[fairness] ${hanging} hanging webhooks, lane ${lane}: healthy commit-to-receipt p50 ${pct(all, 50)} ms, max ${Math.max(...all)} ms; hanging leases at most ${most}; ${during} claims in 1500 ms; ${laneClaims} claims shared the lane`,
      );
      expect(
        all.every((ms) => Number.isFinite(ms)),
        'only events this test committed',
      ).toBe(true);
      expect(Math.max(...all), 'the slowest healthy delivery').toBeLessThan(TIMEOUT_MS / 2);
      expect(pct(all, 50), 'the median healthy delivery').toBeLessThan(200);
      expect(most, 'attempts in flight to the hanging webhooks').toBeLessThanOrEqual(lane);
      expect(during, `${during} claims in 1500 ms while only the lane's work was due`).toBeLessThanOrEqual(10);
      for (const r of hangers) expect(r.posts.length, 'each hanging webhook is still tried').toBeGreaterThan(0);
      if (hanging > lane) expect(laneClaims, 'claims that shared the lane').toBeGreaterThan(0);
    },
    40_000,
  );
});
