import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../shared/config.js';
import { type Db, isPostgres } from '../shared/db/database.js';
import { DeadlineClient, pgClientConfig } from '../shared/db/postgres.js';
import type { WebhookAttemptsTable } from '../shared/db/schema.js';
import { newId } from '../shared/ids.js';
import type { Metrics } from '../shared/metrics.js';
import * as repo from './repository.js';
import { type AfterAttempt, afterAttempt, shouldDisable } from './rules.js';
import { createSender, type Sender, type SendResult } from './sender.js';
import { deliverySignal, PG_CHANNEL } from './signal.js';
import { slotsFor } from './slots.js';

export interface WorkerDeps {
  db: Db;
  config: Config;
  log: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  metrics?: Metrics;
  /** Search path for the LISTEN connection (tests keep each file in its own schema). */
  pgSchema?: string;
}

export interface Worker {
  readonly id: string;
  start(): Promise<void>;
  /** Stops claiming, lets in-flight attempts finish, closes connections. */
  stop(): Promise<void>;
  /** Resolves once nothing is due, in flight or waiting for a handshake. */
  idle(): Promise<void>;
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;
const VERIFY_CHECK_MS = 200;
/** A webhook's last_success_at is written at most this often while it keeps succeeding (failures: at once). */
const SUCCESS_WRITE_EVERY_MS = 1000;

export function createWorker(deps: WorkerDeps): Worker {
  const { db, config, log } = deps;
  const id = `worker-${randomUUID().slice(0, 8)}`;
  // A lease must outlive the slowest attempt, or a live worker's delivery could be claimed twice.
  const leaseMs = Math.max(config.webhookLeaseMs, config.webhookTimeoutMs * 2 + 1000);
  const sender: Sender = createSender(config);
  const inFlight = new Set<Promise<void>>();
  const slots = slotsFor(config);
  /** The last claim took all it asked for: more may be due. */
  let claimedFull = true;
  /** A webhook at its limit has room again, or a timer ran out: worth a claim though the last one came up short. */
  let worthClaiming = false;
  let running = false;
  let loopDone: Promise<void> = Promise.resolve();
  let wake: (() => void) | null = null;
  let kicked = false;
  let listener: pg.Client | null = null;
  let unsubscribe: (() => void) | null = null;
  let lastPrune = 0;
  const idleWaiters: (() => void)[] = [];

  const kick = () => {
    kicked = true;
    wake?.();
  };

  let relistenTimer: NodeJS.Timeout | null = null;
  let relistenDelay = 250;

  /**
   * LISTEN on a dedicated connection. If it drops, reconnect with backoff (polling covers the gap) and kick the
   * loop once back, so nothing notified meanwhile waits for the next poll.
   */
  async function listen(): Promise<void> {
    if (!isPostgres(db) || config.database.kind !== 'postgres' || !running) return;
    // The pool's settings (connect timeout, read deadline, application_name): a stalled server cannot hang the
    // reconnect, and the client keeps an 'error' listener (a dead connection is not an uncaught exception).
    const client = new DeadlineClient(
      pgClientConfig({
        url: config.database.url,
        timeouts: config.databaseTimeouts,
        ...(deps.pgSchema ? { pgSchema: deps.pgSchema } : {}),
      }),
    );
    let dropped = false;
    const onDrop = (err?: Error) => {
      if (dropped) return;
      dropped = true;
      if (listener === client) listener = null;
      client.end().catch(() => undefined);
      if (!running) return;
      log.warn({ err, retryInMs: relistenDelay }, 'delivery LISTEN connection lost; polling until it is back');
      relistenTimer = setTimeout(() => {
        relistenTimer = null;
        // A throw before listen() attaches its own handlers would end the reconnect chain: go round again.
        void listen().catch((err: Error) => {
          dropped = false;
          onDrop(err);
        });
      }, relistenDelay);
      relistenDelay = Math.min(relistenDelay * 2, 30_000);
    };
    // Only this schema's commits wake it (the payload is the committing schema; '' from older versions: any).
    let schema: string | undefined;
    client.on('notification', (msg) => {
      if (!msg.payload || msg.payload === schema) kick();
    });
    client.on('error', onDrop);
    client.on('end', () => onDrop());
    try {
      await client.connect();
      schema = (await client.query<{ s: string }>('select current_schema() as s')).rows[0]?.s;
      await client.query(`LISTEN ${PG_CHANNEL}`);
    } catch (err) {
      onDrop(err as Error);
      return;
    }
    if (!running) {
      // Stopped while reconnecting: an open connection here would keep the process alive after stop().
      dropped = true;
      await client.end().catch(() => undefined);
      return;
    }
    listener = client;
    relistenDelay = 250;
    kick();
  }

  let verifying: Promise<void> | null = null;
  let lastVerifyCheck = 0;

  /** Validation handshakes run beside delivery, never in its way: a slow URL cannot stall the queue. */
  function verifyPending(): void {
    if (verifying || Date.now() - lastVerifyCheck < VERIFY_CHECK_MS) return;
    lastVerifyCheck = Date.now();
    verifying = (async () => {
      const hooks = await db.selectFrom('webhooks').select(['id', 'url']).where('verify_pending', '=', 1).limit(20).execute();
      await Promise.all(
        hooks.map(async (hook) => {
          const result = await sender.handshake(hook.url, config.eventSource);
          // Only the URL that was checked is marked: a URL changed meanwhile stays pending.
          await db
            .updateTable('webhooks')
            .set({ is_verified: result.ok ? 1 : 0, verify_pending: 0 })
            .where('id', '=', hook.id)
            .where('url', '=', hook.url)
            .execute();
          log.info({ webhook: hook.id, verified: result.ok, detail: result.detail }, 'webhook validation handshake');
        }),
      );
    })()
      .catch((err) => log.warn({ err }, 'validation handshake check failed; retrying later'))
      .finally(() => {
        verifying = null;
      });
  }

  async function maybePrune(): Promise<void> {
    if (Date.now() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = Date.now();
    const pruned = await repo.prune(db, new Date(Date.now() - config.webhookRetentionMs).toISOString());
    if (pruned.events + pruned.deliveries + pruned.attempts > 0) log.info(pruned, 'pruned delivered events and logs past retention');
  }

  /** An attempt whose HTTP exchange is over and whose result waits for the next flush. */
  interface Finished {
    ctx: repo.SendContext;
    result: SendResult;
    attemptedAt: string;
    /** When the answer came back: the success time of the webhook. */
    answeredAt: string;
    attemptsDone: number;
    decision: AfterAttempt;
    done: () => void;
    failed: (err: unknown) => void;
  }
  let finished: Finished[] = [];
  let flushing: Promise<void> | null = null;
  let forceSuccesses = false;
  /** What this worker knows of each webhook it recorded results for (a success is written at most once a second). */
  const hookState = new Map<string, { successWrittenAt: number; failing: boolean }>();
  /** Successes not written yet (throttled), by webhook: the latest one's time. */
  let deferredSuccess = new Map<string, string>();
  let deferredTimer: NodeJS.Timeout | null = null;
  /** The earliest retry this worker scheduled, so it wakes for it without asking the database while busy. */
  let ownNextRetry = Infinity;

  const nowIso = () => new Date().toISOString();

  /** The attempt's result, once recorded; undefined when nothing was sent. */
  async function deliver(ctx: repo.SendContext): Promise<SendResult | undefined> {
    const deliveryId = ctx.id;
    if (!ctx.url || ctx.is_enabled !== 1) {
      // Deleted or disabled since the event: not sent. A replay can send it once the webhook is enabled again.
      await repo.finishDelivery(db, deliveryId, 'cancelled', ctx.attempts, nowIso());
      return;
    }
    if (config.webhookRequireVerification && ctx.is_verified !== 1) {
      if (ctx.verify_pending === 1) {
        // The handshake for the current URL has not run yet: hold the delivery (no attempt is counted).
        await repo.scheduleRetry(db, deliveryId, ctx.attempts, new Date(Date.now() + Math.max(config.webhookPollMs, 250)).toISOString());
        return;
      }
      await db.transaction().execute(async (trx) => {
        await repo.insertAttempt(trx, {
          id: newId(),
          delivery_id: deliveryId,
          webhook_id: ctx.webhook_id,
          attempted_at: nowIso(),
          duration_ms: 0,
          status_code: null,
          outcome: 'not_verified',
          error: 'WEBHOOK_REQUIRE_VERIFICATION is on and the URL did not pass the validation handshake',
          response_body: null,
        });
        await repo.finishDelivery(trx, deliveryId, 'cancelled', ctx.attempts, nowIso());
      });
      return;
    }
    const keys: string[] = [];
    if (ctx.is_signed === 1) {
      keys.push(ctx.signing_key!);
      if (ctx.previous_signing_key && ctx.previous_key_expires_at && Date.parse(ctx.previous_key_expires_at) > Date.now())
        keys.push(ctx.previous_signing_key);
    }
    const attemptedAt = nowIso();
    const result: SendResult = await sender.send({
      url: ctx.url,
      messageId: ctx.event_id,
      body: ctx.payload,
      contentType: ctx.content_type!,
      keys,
    });
    const attemptsDone = ctx.attempts + 1;
    const decision = afterAttempt(result, attemptsDone, config.webhookRetryScheduleMs);
    deps.metrics?.delivery.attempts.inc({ outcome: result.outcome });
    // Recorded with whatever else finished meanwhile, in one transaction. Until then the delivery stays pending
    // under this worker's lease: if the process dies first, it is sent again after the lease (at-least-once).
    await new Promise<void>((done, failed) => {
      finished.push({ ctx, result, attemptedAt, answeredAt: nowIso(), attemptsDone, decision, done, failed });
      scheduleFlush();
    });
    return result;
  }

  function scheduleFlush(): void {
    if (flushing) return; // the running flush takes whatever arrived meanwhile before it ends
    flushing = (async () => {
      // Let the other answers that are already in (same I/O turn) join this flush.
      await new Promise((r) => setImmediate(r));
      while (finished.length > 0 || forceSuccesses) {
        const batch = finished;
        const force = forceSuccesses;
        finished = [];
        forceSuccesses = false;
        try {
          await flush(batch, force);
          for (const f of batch) f.done();
        } catch (err) {
          for (const f of batch) f.failed(err);
          if (batch.length === 0) log.warn({ err }, 'recording webhook successes failed; retrying later');
        }
      }
    })().finally(() => {
      flushing = null;
      armDeferredTimer();
      if (finished.length > 0 || forceSuccesses) scheduleFlush();
    });
  }

  /**
   * Records finished attempts in one transaction: the delivery rows first (one statement per kind of outcome), and
   * only for those still there (a webhook deleted during its attempt leaves no log and disables nothing), then
   * their attempt rows in one insert, then the webhooks' state in the order the answers came. `force` writes every
   * throttled success (stop, idle, the throttle's timer).
   */
  async function flush(batch: Finished[], force: boolean): Promise<void> {
    if (batch.length === 0 && deferredSuccess.size === 0) return;
    const nextState = new Map<string, { successWrittenAt: number; failing: boolean }>();
    const pending = new Map(deferredSuccess);
    let nextRetry = Infinity;
    await db.transaction().execute(async (trx) => {
      const now = nowIso();
      const recorded = new Set<Finished>();
      const finishing = new Map<string, Finished[]>();
      for (const f of batch) {
        if (f.decision.kind === 'retry') {
          const at = Date.now() + f.decision.delayMs;
          if (await repo.scheduleRetry(trx, f.ctx.id, f.attemptsDone, new Date(at).toISOString())) {
            recorded.add(f);
            nextRetry = Math.min(nextRetry, at);
          }
          continue;
        }
        const key = `${f.decision.kind === 'succeeded' ? 'succeeded' : 'failed'}:${f.attemptsDone}`;
        const group = finishing.get(key);
        if (group) group.push(f);
        else finishing.set(key, [f]);
      }
      for (const [key, group] of finishing) {
        const [status, attempts] = key.split(':') as ['succeeded' | 'failed', string];
        const ids = new Set(
          await repo.finishDeliveries(
            trx,
            group.map((f) => f.ctx.id),
            status,
            Number(attempts),
            now,
          ),
        );
        for (const f of group) if (ids.has(f.ctx.id)) recorded.add(f);
      }
      const ordered = batch.filter((f) => recorded.has(f));
      const attempts: WebhookAttemptsTable[] = ordered.map((f) => ({
        id: newId(),
        delivery_id: f.ctx.id,
        webhook_id: f.ctx.webhook_id,
        attempted_at: f.attemptedAt,
        duration_ms: f.result.durationMs,
        status_code: f.result.statusCode,
        outcome: f.result.outcome,
        error: f.result.error,
        response_body: f.result.responseBody,
      }));
      const disabling: WebhookAttemptsTable[] = [];

      const stateOf = (f: Finished) => {
        const id = f.ctx.webhook_id;
        let st = nextState.get(id);
        if (!st) {
          const known = hookState.get(id);
          st = { successWrittenAt: known?.successWrittenAt ?? 0, failing: (known?.failing ?? false) || f.ctx.failing_since !== null };
          nextState.set(id, st);
        }
        return st;
      };
      const writeSuccess = async (webhookId: string, st: { successWrittenAt: number; failing: boolean }, mustWrite: boolean) => {
        const at = pending.get(webhookId);
        if (at === undefined) return;
        if (!mustWrite && !st.failing && Date.now() - st.successWrittenAt < SUCCESS_WRITE_EVERY_MS) return;
        await repo.recordWebhookSuccess(trx, webhookId, at);
        pending.delete(webhookId);
        st.successWrittenAt = Date.now();
        st.failing = false;
      };
      const disable = async (f: Finished, reason: string) => {
        await trx
          .updateTable('webhooks')
          .set({ is_enabled: 0, disabled_reason: reason, updated_at: now })
          .where('id', '=', f.ctx.webhook_id)
          .execute();
        disabling.push({
          id: newId(),
          delivery_id: f.ctx.id,
          webhook_id: f.ctx.webhook_id,
          attempted_at: now,
          duration_ms: 0,
          status_code: f.result.statusCode,
          outcome: 'webhook_disabled',
          error: reason,
          response_body: null,
        });
        log.warn({ webhook: f.ctx.webhook_id, reason }, 'webhook disabled');
      };

      for (const f of ordered) {
        const st = stateOf(f);
        const hook = f.ctx.webhook_id;
        if (f.decision.kind === 'succeeded') {
          const prev = pending.get(hook);
          if (prev === undefined || prev < f.answeredAt) pending.set(hook, f.answeredAt);
          deps.metrics?.delivery.latency.observe((Date.parse(f.answeredAt) - Date.parse(f.ctx.event_time)) / 1000);
          continue;
        }
        // A failure: an earlier success (throttled) is written first, so it cannot clear this failure later.
        await writeSuccess(hook, st, true);
        if (f.decision.kind === 'gone') {
          await disable(f, 'the receiver answered 410 Gone');
          continue;
        }
        const failingSince = await repo.recordWebhookFailure(trx, hook, f.attemptedAt);
        st.failing = true;
        if (failingSince !== null && shouldDisable(failingSince, Date.now(), config.webhookDisableAfterMs)) {
          await disable(f, `no successful delivery since ${failingSince}`);
        }
      }
      for (const hook of [...pending.keys()]) {
        let st = nextState.get(hook);
        if (!st) {
          st = { ...(hookState.get(hook) ?? { successWrittenAt: 0, failing: false }) };
          nextState.set(hook, st);
        }
        await writeSuccess(hook, st, force);
      }
      await repo.insertAttempts(trx, [...attempts, ...disabling]);
    });
    // Committed: what this worker now knows.
    for (const [k, v] of nextState) hookState.set(k, v);
    if (hookState.size > 10_000) hookState.clear();
    deferredSuccess = pending;
    if (nextRetry < ownNextRetry) ownNextRetry = nextRetry;
  }

  /** A throttled success is written within a second even if nothing else finishes meanwhile. */
  function armDeferredTimer(): void {
    if (deferredSuccess.size === 0 || deferredTimer) return;
    deferredTimer = setTimeout(() => {
      deferredTimer = null;
      void flushDeferred();
    }, SUCCESS_WRITE_EVERY_MS);
    deferredTimer.unref();
  }

  /** Writes every throttled success now (idle, stop, the throttle's timer), in turn with the other flushes. */
  async function flushDeferred(): Promise<void> {
    if (deferredSuccess.size === 0) return;
    forceSuccesses = true;
    scheduleFlush();
    while (flushing) await flushing;
  }

  /** Nothing due now and no handshake waiting. */
  async function isIdle(): Promise<boolean> {
    const next = await repo.nextDueAt(db);
    if (next && Date.parse(next) <= Date.now()) return false;
    const unverified = await db.selectFrom('webhooks').select('id').where('verify_pending', '=', 1).limit(1).executeTakeFirst();
    if (unverified) lastVerifyCheck = 0;
    return !unverified;
  }

  function track(deliveryId: string, webhookId: string, ctx: repo.SendContext | undefined): void {
    slots.take(webhookId);
    const p: Promise<void> = (ctx ? deliver(ctx) : Promise.resolve(undefined))
      .catch((err) => {
        log.error({ err, delivery: deliveryId }, 'delivery attempt failed unexpectedly; it is retried when its lease expires');
        return undefined;
      })
      .then((result) => {
        inFlight.delete(p);
        // The result tells the slots whether the webhook answers in time (the slow lane).
        if (slots.release(webhookId, result)) worthClaiming = true;
        wake?.();
      });
    inFlight.add(p);
  }

  /** Claims up to `free` due deliveries and starts them, with one query for all their events and webhooks. */
  async function claim(free: number): Promise<number> {
    const now = new Date();
    const claimed = await repo.claimDue(
      db,
      id,
      now.toISOString(),
      new Date(now.getTime() + leaseMs).toISOString(),
      free,
      slots.perEndpoint,
      slots.room(),
      slots.laneBound(),
    );
    claimedFull = claimed.length >= free;
    if (claimed.length > 0) {
      const contexts = new Map(
        (
          await repo.loadForSendMany(
            db,
            claimed.map((d) => d.id),
          )
        ).map((c) => [c.id, c]),
      );
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
      if (ownNextRetry !== Infinity) ms = Math.max(0, Math.min(ms, ownNextRetry - Date.now()));
    } else {
      const next = await repo.nextDueAt(db);
      if (next) ms = Math.max(0, Math.min(ms, Date.parse(next) - Date.now()));
      if (ms === 0) return;
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
        const wasKicked = kicked;
        const worth = worthClaiming;
        kicked = false;
        worthClaiming = false;
        if (ownNextRetry <= Date.now()) ownNextRetry = Infinity;
        const free = config.webhookConcurrency - inFlight.size;
        // Claim in batches: when half the slots are free (or nothing is in flight, or new work was signalled),
        // not one claim per finished attempt. After a claim that found less than it asked for, free slots alone
        // are no reason to ask again (what is left due belongs to webhooks at their limit: EndpointSlots).
        const claiming = free > 0 && (wasKicked || worth || inFlight.size === 0 || (free >= half && claimedFull));
        const claimed = claiming ? await claim(free) : 0;
        verifyPending();
        await maybePrune();
        if (idleWaiters.length > 0 && claimed === 0 && inFlight.size === 0 && !kicked) {
          if (verifying) await verifying;
          if (await isIdle()) {
            await flushDeferred();
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

  return {
    id,
    async start() {
      if (running) return;
      running = true;
      unsubscribe = deliverySignal.onKick(kick);
      await listen();
      loopDone = loop();
      log.info(
        { worker: id, leaseMs, concurrency: config.webhookConcurrency, perEndpoint: slots.perEndpoint, slowLane: slots.lane },
        'delivery worker started',
      );
    },
    async stop() {
      if (!running) return;
      running = false;
      kick(); // wakes the loop if it sleeps, and keeps it from falling asleep if it is between two queries
      unsubscribe?.();
      if (relistenTimer) clearTimeout(relistenTimer);
      relistenTimer = null;
      await loopDone;
      await Promise.allSettled([...inFlight, verifying]);
      if (deferredTimer) clearTimeout(deferredTimer);
      deferredTimer = null;
      await flushDeferred();
      if (relistenTimer) clearTimeout(relistenTimer);
      await listener?.end().catch(() => undefined);
      await sender.close();
      for (const r of idleWaiters.splice(0)) r();
    },
    /** Resolves once nothing is due, in flight or waiting for a handshake (tests and tools use it). */
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        kick();
      });
    },
  };
}
