// Two `labstock worker` processes on one PostgreSQL database (docs/product.md §9: workers claim with FOR UPDATE SKIP
// LOCKED and wake on LISTEN/NOTIFY): 5,000 events, each delivered exactly once, and both processes did part of
// the work. SQLite is single-node, so this file only runs against PostgreSQL (DATABASE_URL=postgres://…).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { Receiver } from '../helpers/receiver.js';
import { arrivals, commitEvents, dbIsPostgres, killAllWorkers, openStream, type Stream, WorkerProcess, waitUntil } from './_stream.js';

const TOTAL = 5000;
const PER_TRANSACTION = 625; // eight transactions

// The default 60 s lease: no crash here, so nothing may ever be claimed twice. A long poll interval means
// that a worker which does not wake on NOTIFY stalls visibly instead of quietly keeping up by polling.
const WORKER_ENV = {
  WEBHOOK_POLL: '5s',
  WEBHOOK_CONCURRENCY: '16',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,400ms',
};

describe.runIf(dbIsPostgres)('two worker processes on PostgreSQL', () => {
  let receiver: Receiver;
  let s: Stream | undefined;

  beforeAll(async () => {
    receiver = await new Receiver().start();
    receiver.respond = (_req, i) => ({ status: 204, delayMs: i % 3 }); // 0–2 ms: keeps both workers' slots busy
    s = await openStream('multi', receiver, WORKER_ENV);
    // Tags this file's worker connections so the second test can find their LISTEN sessions in pg_stat_activity.
    s.childEnv.DATABASE_URL += `&application_name=${appName()}`;
  });

  const appName = () => `labstock_mw_${s!.database.pgSchema}`;

  afterAll(async () => {
    await killAllWorkers();
    await receiver?.stop();
    await s?.database.drop();
  });

  it('deliver 5,000 events exactly once between them, both doing part of the work', async () => {
    const { db } = s!.deps;
    const started = Date.now();
    const workers = [new WorkerProcess(s!.childEnv, 'worker A'), new WorkerProcess(s!.childEnv, 'worker B')];
    onTestFinished(() => Promise.all(workers.map((w) => w.kill())).then(() => undefined)); // even after a failure
    const ids = await Promise.all(workers.map((w) => w.started));
    expect(new Set(ids).size).toBe(2);

    // Who holds each delivery while it is in flight (finishing clears leased_by, so it is sampled meanwhile).
    const holders = new Map<string, Set<string>>();
    const firstSeen = new Map<string, number>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const rows = await db.selectFrom('webhook_deliveries').select(['id', 'leased_by']).where('leased_by', 'is not', null).execute();
        for (const r of rows) {
          const set = holders.get(r.id) ?? new Set<string>();
          set.add(r.leased_by!);
          if (!firstSeen.has(r.leased_by!)) firstSeen.set(r.leased_by!, Date.now());
          holders.set(r.id, set);
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    })();

    const expected: string[] = [];
    let firstCommitAt = 0;
    try {
      // A few large transactions through the real outbox: fan-out writes the deliveries, commit NOTIFYs.
      // Four transactions at a time (the test's pool holds five connections; the sampler uses the fifth).
      const transactions = Array.from({ length: TOTAL / PER_TRANSACTION }, (_, k) => k * PER_TRANSACTION);
      while (transactions.length > 0) {
        const round = transactions.splice(0, 4);
        const committed = await Promise.all(
          round.map(async (first) => {
            const batch = await commitEvents(s!, PER_TRANSACTION, PER_TRANSACTION, first);
            firstCommitAt ||= Date.now();
            return batch;
          }),
        );
        for (const batch of committed) expected.push(...batch);
      }
      const committedAt = Date.now();
      await waitUntil(
        'all deliveries completed',
        // Alone this takes ~7 s; beside the rest of the PostgreSQL suite on a 2-core CI machine it took over 40 s
        // (4,946 of 5,000 at 40 s in the stop-28 CI run). The test asserts exactly-once and sharing, not speed.
        120_000,
        async () => {
          if (arrivals(receiver).size < TOTAL) return false;
          const pending = await db
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll<string | number>().as('n'))
            .where('status', '=', 'pending')
            .executeTakeFirstOrThrow();
          return Number(pending.n) === 0;
        },
        50,
      ).catch((err: Error) => {
        throw new Error(
          `${err.message}: ${arrivals(receiver).size} of ${TOTAL} arrived; errors: ${
            workers
              .flatMap((w) => w.errors)
              .slice(0, 5)
              .join(' | ') || 'none'
          }`,
        );
      });
      console.info(
        `[multi-worker] committed ${TOTAL} events in ${committedAt - started} ms; all delivered ${Date.now() - committedAt} ms later`,
      );
    } finally {
      sampling = false;
      await sampler;
    }
    // Graceful stops: anything still in flight (a second copy of some delivery, say) finishes before counting.
    const exits = await Promise.all(workers.map((w) => w.stop()));
    expect(exits).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);

    // Exactly once: every event, no event twice, nothing unknown.
    const got = arrivals(receiver);
    expect(got.size).toBe(TOTAL);
    expect([...got.keys()].sort()).toEqual([...expected].sort());
    expect([...got].filter(([, n]) => n !== 1)).toEqual([]);
    expect(receiver.posts).toHaveLength(TOTAL);

    const deliveries = await db
      .selectFrom('webhook_deliveries')
      .select(['id', 'status', 'attempts', 'leased_by'])
      .where('webhook_id', '=', s!.webhook.id)
      .execute();
    expect(deliveries).toHaveLength(TOTAL);
    expect(deliveries.filter((d) => d.status !== 'succeeded' || d.attempts !== 1 || d.leased_by !== null)).toEqual([]);
    const attempts = await db
      .selectFrom('webhook_attempts')
      .select(['delivery_id', 'outcome'])
      .where('webhook_id', '=', s!.webhook.id)
      .execute();
    expect(attempts).toHaveLength(TOTAL);
    expect(new Set(attempts.map((a) => a.delivery_id)).size).toBe(TOTAL);
    expect(attempts.filter((a) => a.outcome !== 'success')).toEqual([]);

    // Never held by both (SKIP LOCKED), only by these two, and each did a real share of what was seen.
    const twice = [...holders].filter(([, set]) => set.size > 1);
    expect(twice, 'deliveries leased by two workers').toEqual([]);
    const share = new Map(ids.map((id) => [id, 0]));
    for (const [, set] of holders) for (const w of set) share.set(w, (share.get(w) ?? 0) + 1);
    expect([...share.keys()].sort()).toEqual([...ids].sort());
    const seen = holders.size;
    expect(seen, 'too few in-flight deliveries sampled to tell who did the work').toBeGreaterThanOrEqual(200);
    for (const id of ids) {
      expect(share.get(id)!, `${id} held ${share.get(id)} of ${seen} sampled deliveries`).toBeGreaterThanOrEqual(Math.floor(seen * 0.15));
    }
    // Both woke on the first commit's NOTIFY, well before their 5 s fallback poll.
    for (const id of ids) expect(firstSeen.get(id)! - firstCommitAt, `${id} started on the first batch late`).toBeLessThan(2000);
    expect(workers.flatMap((w) => w.errors)).toEqual([]);
    console.info(
      `[multi-worker] sampled ${seen} in-flight deliveries: ${ids.map((id) => `${id} ${share.get(id)}`).join(', ')}; ${Date.now() - started} ms`,
    );
    // What it asserts is exactly-once and the sharing, not speed (npm run bench measures that): on this session's
    // CI machine committing the 5,000 events alone took 31 s and the whole test 56-62 s beside other files.
  }, 200_000);

  it('a worker whose LISTEN connection drops listens again, rather than waiting for its poll from then on', async () => {
    const POLL_MS = 10_000;
    const env = { ...s!.childEnv, WEBHOOK_POLL: `${POLL_MS}ms` };
    const workers = [new WorkerProcess(env, 'worker C'), new WorkerProcess(env, 'worker D')];
    onTestFinished(() => Promise.all(workers.map((w) => w.kill())).then(() => undefined));
    await Promise.all(workers.map((w) => w.started));
    const latency = async (seq: number) => {
      const before = receiver.posts.length;
      const [id] = await commitEvents(s!, 1, 1, seq);
      const t = Date.now();
      await waitUntil(
        `event ${seq} delivered`,
        POLL_MS + 5000,
        () => receiver.posts.slice(before).some((r) => r.headers['webhook-id'] === id),
        5,
      );
      return Date.now() - t;
    };
    expect(await latency(TOTAL), 'NOTIFY wakes a listening worker').toBeLessThan(2000);

    // The LISTEN sessions go away (a database restart, a proxy or an administrator closing idle connections).
    const admin = new pg.Client({ connectionString: s!.database.url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ pid: number }>(
        `select pg_terminate_backend(pid), pid from pg_stat_activity where application_name = $1 and query like 'LISTEN%'`,
        [appName()],
      );
      expect(rows).toHaveLength(2);
    } finally {
      await admin.end();
    }
    await waitUntil('both workers noticed the lost connection', 5000, () =>
      workers.every((w) => w.logs.some((l) => /LISTEN connection/.test(l.msg))),
    );
    await new Promise((r) => setTimeout(r, 1500)); // time to reconnect, and for any wake-up already queued to pass

    // Later events must still wake a worker promptly: the fallback poll is not a replacement for LISTEN.
    const after = [await latency(TOTAL + 1), await latency(TOTAL + 2)];
    console.info(
      `[multi-worker] delivery latency after the LISTEN sessions were terminated: ${after.join(' ms, ')} ms (poll ${POLL_MS} ms)`,
    );
    expect(Math.max(...after), 'a worker that lost its LISTEN connection only wakes on its fallback poll').toBeLessThan(2000);
    const exits = await Promise.all(workers.map((w) => w.stop()));
    expect(exits).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  }, 45_000);
});
