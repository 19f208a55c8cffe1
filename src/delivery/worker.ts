import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../shared/config.js';
import type { Db } from '../shared/db/database.js';
import type { Metrics } from '../shared/metrics.js';
import { createAttempt } from './attempt.js';
import { claimForSend } from './claim-repository.js';
import { createHandshakes } from './handshakes.js';
import { createJobs, type WorkerJob } from './jobs.js';
import { createListener } from './listener.js';
import { createRecorder } from './recorder.js';
import * as repo from './repository.js';
import type { SendResult } from './sender.js';
import { deliverySignal } from './signal.js';
import { slotsFor } from './slots.js';
import { createThreadSender, type ThreadSender } from './thread-sender.js';
import { createTracer, wallNow } from './trace.js';

export interface WorkerDeps {
  db: Db;
  config: Config;
  log: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  metrics?: Metrics;
  /** Search path for the LISTEN connection (tests keep each file in its own schema). */
  pgSchema?: string;
  /** Periodic jobs beside delivery (reminders and alerts: src/alerts/job.ts), handed in by who starts the worker. */
  jobs?: WorkerJob[];
  /** The thread that signs and sends (thread-sender.ts), not started yet; by default the worker makes its own. */
  sender?: ThreadSender;
}

export interface Worker {
  readonly id: string;
  start(): Promise<void>;
  /** Stops claiming, lets in-flight attempts finish, closes connections. */
  stop(): Promise<void>;
  /** Resolves once nothing is due, in flight or waiting for a handshake (and no job is running). */
  idle(): Promise<void>;
  /** Runs every job now (after the run in progress, if any) and resolves when they are done. */
  runJobs(): Promise<void>;
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * The claim loop: claims due deliveries in batches, starts an attempt for each (attempt.ts), and sleeps until a
 * commit is signalled (signal.ts, listener.ts), an attempt finishes, or something falls due. Results are recorded
 * in batches (recorder.ts); validation handshakes run beside it (handshakes.ts).
 */
export function createWorker(deps: WorkerDeps): Worker {
  const { db, config, log } = deps;
  const id = `worker-${randomUUID().slice(0, 8)}`;
  // A lease must outlive the slowest attempt, or a live worker's delivery could be claimed twice.
  const leaseMs = Math.max(config.webhookLeaseMs, config.webhookTimeoutMs * 2 + 1000);
  // Sending and signing run in a thread of their own (thread-sender.ts); claiming and recording stay here.
  // WEBHOOK_TRACE: each delivery's steps, timed (trace.ts); null otherwise.
  const tracer = createTracer(config.webhookTracePath);
  const sender =
    deps.sender ??
    createThreadSender(
      { webhookTimeoutMs: config.webhookTimeoutMs, webhookAllowedCidrs: config.webhookAllowedCidrs, trace: tracer !== null },
      log,
    );
  const recorder = createRecorder({ db, config, log, ...(deps.metrics ? { metrics: deps.metrics } : {}) });
  const deliver = createAttempt({
    db,
    config,
    sender,
    recorder,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    ...(tracer ? { tracer } : {}),
  });
  const handshakes = createHandshakes({ db, config, log, sender });
  /** Attempts not recorded yet; `sending`: those of them still waiting for their receiver's answer. */
  const inFlight = new Set<Promise<void>>();
  let sending = 0;
  const slots = slotsFor(config);
  /** The last claim took all it asked for: more may be due. */
  let claimedFull = true;
  /** A webhook at its limit has room again, or a timer ran out: worth a claim though the last one came up short. */
  let worthClaiming = false;
  /**
   * New work was signalled (or a timer ran out) while every slot was taken: the first slot to free is claimed for,
   * so that it goes to whoever's turn it is (claim-repository.ts) and not only to a batch once half the slots free.
   */
  let claimOnFreeSlot = false;
  let running = false;
  let loopDone: Promise<void> = Promise.resolve();
  let wake: (() => void) | null = null;
  let kicked = false;
  let unsubscribe: (() => void) | null = null;
  let lastPrune = 0;
  const idleWaiters: (() => void)[] = [];
  const jobs = createJobs(deps.jobs ?? [], log, () => running);

  const kick = () => {
    tracer?.kicked();
    kicked = true;
    wake?.();
  };

  const listener = createListener({
    db,
    config,
    log,
    ...(deps.pgSchema ? { pgSchema: deps.pgSchema } : {}),
    onWake: kick,
    isRunning: () => running,
  });

  async function maybePrune(): Promise<void> {
    if (Date.now() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = Date.now();
    const pruned = await repo.prune(db, new Date(Date.now() - config.webhookRetentionMs).toISOString());
    if (pruned.events + pruned.deliveries + pruned.attempts > 0) log.info(pruned, 'pruned delivered events and logs past retention');
  }

  /** Nothing due now and no handshake waiting. */
  async function isIdle(): Promise<boolean> {
    const next = await repo.nextDueAt(db);
    if (next && Date.parse(next) <= Date.now()) return false;
    return !(await handshakes.pending());
  }

  /**
   * Starts one attempt. Its slot is free again once the receiver has answered (or the attempt failed), before the
   * result is recorded: the record waits for the next claim's transaction (recorder.ts), and `inFlight` holds the
   * attempt until it is recorded (idle, stop).
   */
  function track(deliveryId: string, webhookId: string, ctx: repo.SendContext | undefined): void {
    slots.take(webhookId, ctx?.organization_id ?? null);
    sending += 1;
    let released = false;
    const release = (result?: SendResult) => {
      if (released) return;
      released = true;
      sending -= 1;
      // The result tells the slots whether the webhook answers in time (the slow lane).
      if (slots.release(webhookId, result)) worthClaiming = true;
      wake?.();
    };
    const p: Promise<void> = (ctx ? deliver(ctx) : Promise.resolve(undefined))
      .then(async (started) => {
        release(started?.result);
        await started?.recorded;
      })
      .catch((err) => {
        release();
        log.error({ err, delivery: deliveryId }, 'delivery attempt failed unexpectedly; it is retried when its lease expires');
      })
      .finally(() => {
        inFlight.delete(p);
        wake?.();
      });
    inFlight.add(p);
  }

  /** Claims up to `free` due deliveries and starts them, with one query for all their events and webhooks. */
  async function claim(free: number, wasKicked: boolean): Promise<number> {
    const kickedAt = wasKicked && tracer ? tracer.lastKick() : 0;
    const claimStartAt = tracer ? wallNow() : 0;
    const now = new Date();
    const slotState = { perWebhook: slots.perEndpoint, room: slots.room(), ...slots.load(), lane: slots.laneBound() };
    let claimEnd = 0;
    // One transaction: what finished since the last claim is recorded, the due deliveries claimed, their events
    // and webhooks loaded.
    const { claimed, contexts } = await recorder.withRecords(async (trx) => {
      const batch = await claimForSend(trx, id, now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), free, slotState);
      if (tracer) claimEnd = wallNow();
      return { claimed: batch.claimed, contexts: new Map(batch.contexts.map((c) => [c.id, c])) };
    });
    claimedFull = claimed.length >= free;
    if (claimed.length > 0) {
      if (tracer) {
        const steps = { kick: kickedAt, claimStart: claimStartAt, claimEnd, loaded: wallNow(), claimBatch: claimed.length };
        for (const d of claimed) if (contexts.has(d.id)) tracer.step(d.id, steps);
      }
      for (const d of claimed) track(d.id, d.webhook_id, contexts.get(d.id));
    }
    // Short, and a webhook's backlog filled its room: claim again without it, for what it may have hidden.
    if (slots.claimed(new Set(claimed.map((d) => d.webhook_id))) && !claimedFull) worthClaiming = true;
    return claimed.length;
  }

  async function sleep(): Promise<void> {
    if (kicked || !running) return;
    let ms = config.webhookPollMs;
    if (inFlight.size > 0) {
      // A finishing attempt wakes the loop; only a retry this worker scheduled needs a timer (others: the poll).
      const ownNextRetry = recorder.earliestRetry();
      if (ownNextRetry !== Infinity) ms = Math.max(0, Math.min(ms, ownNextRetry - Date.now()));
    } else {
      const next = await repo.nextDueAt(db);
      if (next) ms = Math.max(0, Math.min(ms, Date.parse(next) - Date.now()));
      if (ms === 0) {
        worthClaiming = true;
        return;
      }
    }
    // A kick (or stop) that came while nextDueAt was read found no one to wake: do not sleep through it.
    if (kicked || !running) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(
        () => {
          worthClaiming = true; // a retry or lease may have come due, or a commit was not signalled
          done();
        },
        Math.max(ms, 5),
      );
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });
  }

  async function loop(): Promise<void> {
    const half = Math.max(1, Math.ceil(config.webhookConcurrency / 2));
    while (running) {
      try {
        const free = config.webhookConcurrency - sending;
        const wasKicked = kicked || (claimOnFreeSlot && free > 0);
        const worth = worthClaiming;
        if (free <= 0 && (kicked || worthClaiming)) claimOnFreeSlot = true;
        else if (free > 0) claimOnFreeSlot = false;
        kicked = false;
        worthClaiming = false;
        recorder.forgetPastRetry(Date.now());
        // Claim in batches: when half the slots are free (or new work was signalled, or something fell due), not
        // one claim per finished attempt. After a claim that found less than it asked for, free slots alone are no
        // reason to ask again (what is left due belongs to webhooks at their limit: EndpointSlots), nor is an
        // empty worker: sleep() asks when the next delivery falls due.
        const claiming = free > 0 && (wasKicked || worth || ((sending === 0 || free >= half) && claimedFull));
        const claimed = claiming ? await claim(free, wasKicked) : 0;
        handshakes.check();
        await maybePrune();
        // Someone waits for idle and nothing more is coming to ride with: record what waits now.
        if (idleWaiters.length > 0 && sending === 0 && recorder.waiting() > 0) await recorder.flush();
        if (idleWaiters.length > 0 && claimed === 0 && inFlight.size === 0 && !kicked) {
          const verifying = handshakes.running();
          if (verifying) await verifying;
          if (await isIdle()) {
            await recorder.flushDeferred();
            for (const r of idleWaiters.splice(0)) r();
          }
        }
        if ((!claiming || claimed < free) && !worthClaiming) await sleep();
      } catch (err) {
        if (!running) break;
        log.error({ err }, 'delivery loop error; retrying');
        await new Promise((r) => setTimeout(r, Math.min(config.webhookPollMs, 1000)));
      }
    }
  }

  async function stop(): Promise<void> {
    if (!running) return;
    running = false;
    kick(); // wakes the loop if it sleeps, and keeps it from falling asleep if it is between two queries
    unsubscribe?.();
    listener.stopReconnecting();
    await jobs.stop();
    await loopDone;
    await Promise.allSettled([...inFlight, handshakes.running()]);
    await recorder.stop();
    await tracer?.close();
    await listener.close();
    await sender.close();
    for (const r of idleWaiters.splice(0)) r();
  }

  return {
    id,
    async start() {
      if (running) return;
      // What is sent before the thread is up waits in its queue: claims need not wait for it, but a thread that
      // cannot start fails the start (serve and worker exit with the error).
      const threadUp = sender.start();
      threadUp.catch(() => undefined);
      running = true;
      unsubscribe = deliverySignal.onKick(kick);
      await listener.start();
      loopDone = loop();
      jobs.start();
      try {
        await threadUp;
      } catch (err) {
        await stop();
        throw err;
      }
      log.info(
        { worker: id, leaseMs, concurrency: config.webhookConcurrency, perEndpoint: slots.perEndpoint, slowLane: slots.lane },
        'delivery worker started',
      );
    },
    stop,
    /** Resolves once nothing is due, in flight or waiting for a handshake (tests and tools use it). */
    async idle() {
      await jobs.settled();
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        kick();
      });
    },
    runJobs: () => jobs.runAll(),
  };
}
