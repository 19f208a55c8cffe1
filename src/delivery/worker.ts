import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../shared/config.js';
import { type Db, isPostgres } from '../shared/db/database.js';
import { newId } from '../shared/ids.js';
import type { Metrics } from '../shared/metrics.js';
import * as repo from './repository.js';
import { afterAttempt, shouldDisable } from './rules.js';
import { createSender, type SendResult, type Sender } from './sender.js';
import { deliverySignal, PG_CHANNEL } from './signal.js';

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

export function createWorker(deps: WorkerDeps): Worker {
  const { db, config, log } = deps;
  const id = `worker-${randomUUID().slice(0, 8)}`;
  // A lease must outlive the slowest attempt, or a live worker's delivery could be claimed twice.
  const leaseMs = Math.max(config.webhookLeaseMs, config.webhookTimeoutMs * 2 + 1000);
  const sender: Sender = createSender(config);
  const inFlight = new Set<Promise<void>>();
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
    const client = new pg.Client({ connectionString: config.database.url, ...(deps.pgSchema ? { options: `-c search_path=${deps.pgSchema}` } : {}) });
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
        void listen().catch(() => onDrop());
      }, relistenDelay);
      relistenDelay = Math.min(relistenDelay * 2, 30_000);
    };
    client.on('notification', kick);
    client.on('error', onDrop);
    client.on('end', () => onDrop());
    try {
      await client.connect();
      await client.query(`LISTEN ${PG_CHANNEL}`);
    } catch (err) {
      onDrop(err as Error);
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
      await Promise.all(hooks.map(async (hook) => {
        const result = await sender.handshake(hook.url, config.eventSource);
        // Only the URL that was checked is marked: a URL changed meanwhile stays pending.
        await db.updateTable('webhooks').set({ is_verified: result.ok ? 1 : 0, verify_pending: 0 })
          .where('id', '=', hook.id).where('url', '=', hook.url).execute();
        log.info({ webhook: hook.id, verified: result.ok, detail: result.detail }, 'webhook validation handshake');
      }));
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

  async function deliver(deliveryId: string): Promise<void> {
    const ctx = await repo.loadForSend(db, deliveryId);
    if (!ctx) return;
    const now = () => new Date().toISOString();
    if (!ctx.url || ctx.is_enabled !== 1) {
      // Deleted or disabled since the event: not sent. A replay can send it once the webhook is enabled again.
      await repo.finishDelivery(db, deliveryId, 'cancelled', ctx.attempts, now());
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
          id: newId(), delivery_id: deliveryId, webhook_id: ctx.webhook_id, attempted_at: now(), duration_ms: 0, status_code: null,
          outcome: 'not_verified', error: 'WEBHOOK_REQUIRE_VERIFICATION is on and the URL did not pass the validation handshake', response_body: null,
        });
        await repo.finishDelivery(trx, deliveryId, 'cancelled', ctx.attempts, now());
      });
      return;
    }
    const keys: string[] = [];
    if (ctx.is_signed === 1) {
      keys.push(ctx.signing_key!);
      if (ctx.previous_signing_key && ctx.previous_key_expires_at && Date.parse(ctx.previous_key_expires_at) > Date.now()) keys.push(ctx.previous_signing_key);
    }
    const attemptedAt = now();
    const result: SendResult = await sender.send({ url: ctx.url, messageId: ctx.event_id, body: ctx.payload, contentType: ctx.content_type!, keys });
    const attemptsDone = ctx.attempts + 1;
    const decision = afterAttempt(result, attemptsDone, config.webhookRetryScheduleMs);
    deps.metrics?.delivery.attempts.inc({ outcome: result.outcome });

    await db.transaction().execute(async (trx) => {
      const finishedAt = now();
      // The delivery row first: if the webhook was deleted during the attempt, the row is gone and nothing of
      // this attempt may be written back (no orphan log, no disabling a webhook that no longer exists).
      const recorded = decision.kind === 'retry'
        ? await repo.scheduleRetry(trx, deliveryId, attemptsDone, new Date(Date.now() + decision.delayMs).toISOString())
        : await repo.finishDelivery(trx, deliveryId, decision.kind === 'succeeded' ? 'succeeded' : 'failed', attemptsDone, finishedAt);
      if (!recorded) return;
      await repo.insertAttempt(trx, {
        id: newId(), delivery_id: deliveryId, webhook_id: ctx.webhook_id, attempted_at: attemptedAt, duration_ms: result.durationMs,
        status_code: result.statusCode, outcome: result.outcome, error: result.error, response_body: result.responseBody,
      });
      const disable = async (reason: string) => {
        await trx.updateTable('webhooks').set({ is_enabled: 0, disabled_reason: reason, updated_at: finishedAt }).where('id', '=', ctx.webhook_id).execute();
        await repo.insertAttempt(trx, {
          id: newId(), delivery_id: deliveryId, webhook_id: ctx.webhook_id, attempted_at: finishedAt, duration_ms: 0,
          status_code: result.statusCode, outcome: 'webhook_disabled', error: reason, response_body: null,
        });
        log.warn({ webhook: ctx.webhook_id, reason }, 'webhook disabled');
      };
      if (decision.kind === 'succeeded') {
        await trx.updateTable('webhooks').set({ last_success_at: finishedAt, failing_since: null }).where('id', '=', ctx.webhook_id).execute();
        deps.metrics?.delivery.latency.observe((Date.parse(finishedAt) - Date.parse(ctx.event_time)) / 1000);
        return;
      }
      if (decision.kind === 'gone') {
        await disable('the receiver answered 410 Gone');
        return;
      }
      const failingSince = ctx.failing_since ?? attemptedAt;
      if (!ctx.failing_since) await trx.updateTable('webhooks').set({ failing_since: failingSince }).where('id', '=', ctx.webhook_id).execute();
      if (shouldDisable(failingSince, Date.now(), config.webhookDisableAfterMs)) {
        await disable(`no successful delivery since ${failingSince}`);
      }
    });
  }

  /** Nothing due now and no handshake waiting. */
  async function isIdle(): Promise<boolean> {
    const next = await repo.nextDueAt(db);
    if (next && Date.parse(next) <= Date.now()) return false;
    const unverified = await db.selectFrom('webhooks').select('id').where('verify_pending', '=', 1).limit(1).executeTakeFirst();
    if (unverified) lastVerifyCheck = 0;
    return !unverified;
  }

  function track(deliveryId: string): void {
    const p = deliver(deliveryId)
      .catch((err) => log.error({ err, delivery: deliveryId }, 'delivery attempt failed unexpectedly; it is retried when its lease expires'))
      .finally(() => {
        inFlight.delete(p);
        wake?.();
      });
    inFlight.add(p);
  }

  async function sleep(): Promise<void> {
    if (kicked) return;
    let ms = config.webhookPollMs;
    const next = await repo.nextDueAt(db);
    if (next) ms = Math.max(0, Math.min(ms, Date.parse(next) - Date.now()));
    if (ms === 0 && inFlight.size === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(ms, 5));
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });
  }

  async function loop(): Promise<void> {
    while (running) {
      try {
        kicked = false;
        const free = config.webhookConcurrency - inFlight.size;
        let claimed: repo.DeliveryRow[] = [];
        if (free > 0) {
          const now = new Date();
          claimed = await repo.claimDue(db, id, now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), free);
          for (const d of claimed) track(d.id);
        }
        verifyPending();
        await maybePrune();
        if (idleWaiters.length > 0 && claimed.length === 0 && inFlight.size === 0 && !kicked) {
          if (verifying) await verifying;
          if (await isIdle()) idleWaiters.splice(0).forEach((r) => r());
        }
        if (claimed.length < free || free === 0) await sleep();
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
      log.info({ worker: id, leaseMs, concurrency: config.webhookConcurrency }, 'delivery worker started');
    },
    async stop() {
      if (!running) return;
      running = false;
      wake?.();
      unsubscribe?.();
      await loopDone;
      await Promise.allSettled([...inFlight, verifying]);
      if (relistenTimer) clearTimeout(relistenTimer);
      await listener?.end().catch(() => undefined);
      await sender.close();
      idleWaiters.splice(0).forEach((r) => r());
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
