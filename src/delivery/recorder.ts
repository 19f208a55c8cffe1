import type { Logger } from 'pino';
import type { Config } from '../shared/config.js';
import type { Db, Executor } from '../shared/db/database.js';
import type { WebhookAttemptsTable } from '../shared/db/schema.js';
import { newId } from '../shared/ids.js';
import type { Metrics } from '../shared/metrics.js';
import * as repo from './repository.js';
import { type AfterAttempt, shouldDisable } from './rules.js';
import type { SendResult } from './sender.js';
import { disableWebhook, recordWebhookFailure, recordWebhookSuccess } from './webhook-repository.js';

/** A webhook's last_success_at is written at most this often while it keeps succeeding (failures: at once). */
const SUCCESS_WRITE_EVERY_MS = 1000;
/**
 * How long a finished attempt waits for the next claim's transaction before it is recorded alone. Far inside any
 * lease (at least 2 x WEBHOOK_TIMEOUT_MS + 1 s: worker.ts), so waiting never lets another worker send it again.
 */
const RIDE_MS = 10;

/** An attempt whose HTTP exchange is over, waiting to be recorded. */
export interface FinishedAttempt {
  ctx: repo.SendContext;
  result: SendResult;
  attemptedAt: string;
  /** When the answer came back: the success time of the webhook. */
  answeredAt: string;
  attemptsDone: number;
  decision: AfterAttempt;
}

interface Finished extends FinishedAttempt {
  done: (batch: number) => void;
  failed: (err: unknown) => void;
}

export interface RecorderDeps {
  db: Db;
  config: Pick<Config, 'webhookDisableAfterMs'>;
  log: Pick<Logger, 'warn'>;
  metrics?: Metrics;
}

export interface Recorder {
  /**
   * Records the attempt with whatever else finished meanwhile, in one transaction; resolves once committed. Until
   * then the delivery stays pending under the worker's lease: if the process dies first, it is sent again after
   * the lease (at-least-once). Resolves with how many attempts that transaction recorded.
   */
  record(attempt: FinishedAttempt): Promise<number>;
  /** Attempts waiting to be recorded. */
  waiting(): number;
  /** Records what waits now, in a transaction of its own (nothing more will come to ride with: idle, stop). */
  flush(): Promise<void>;
  /**
   * Runs `work` (a claim) in one transaction with what waits to be recorded: a finished attempt rides the next
   * claim instead of a transaction of its own, or is recorded alone after RIDE_MS if no claim comes.
   */
  withRecords<T>(work: (trx: Executor) => Promise<T>): Promise<T>;
  /** Writes every throttled success now (idle, stop), in turn with the other flushes. */
  flushDeferred(): Promise<void>;
  /** Stops the throttle's timer and writes what it held. */
  stop(): Promise<void>;
  /** The earliest retry this worker scheduled (Infinity: none), so it wakes for it without asking the database. */
  earliestRetry(): number;
  /** Forgets the earliest retry once it is due. */
  forgetPastRetry(now: number): void;
}

type HookState = { successWrittenAt: number; failing: boolean };

/** Result batching and webhook health: the delivery rows, the attempt log, and each webhook's success and failure. */
export function createRecorder(deps: RecorderDeps): Recorder {
  const { db, config, log } = deps;
  let finished: Finished[] = [];
  let forceSuccesses = false;
  /** What this worker knows of each webhook it recorded results for (a success is written at most once a second). */
  const hookState = new Map<string, HookState>();
  /** Successes not written yet (throttled), by webhook: the latest one's time. */
  let deferredSuccess = new Map<string, string>();
  let deferredTimer: NodeJS.Timeout | null = null;
  let ownNextRetry = Infinity;

  const nowIso = () => new Date().toISOString();

  /** One recording at a time (a claim's, the timer's, idle's): each starts from what the one before committed. */
  let lock: Promise<unknown> = Promise.resolve();
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = lock.then(fn);
    lock = run.catch(() => undefined);
    return run;
  }

  /** Attempts wait for the next claim's transaction at most this long, then are recorded on their own. */
  let rideTimer: NodeJS.Timeout | null = null;
  function recordSoon(): void {
    if (rideTimer || (finished.length === 0 && !forceSuccesses)) return;
    rideTimer = setTimeout(() => {
      rideTimer = null;
      void flushNow();
    }, RIDE_MS);
  }

  /** What waits now, taken out of the queue for one transaction. */
  function take(): { batch: Finished[]; force: boolean } {
    const taken = { batch: finished, force: forceSuccesses };
    finished = [];
    forceSuccesses = false;
    if (rideTimer) clearTimeout(rideTimer);
    rideTimer = null;
    return taken;
  }

  /** Records whatever waits in transactions of its own, until nothing does. */
  function flushNow(): Promise<void> {
    return exclusive(async () => {
      while (finished.length > 0 || forceSuccesses) {
        const { batch, force } = take();
        try {
          const committed = await db.transaction().execute((trx) => write(trx, batch, force));
          committed();
          for (const f of batch) f.done(batch.length);
        } catch (err) {
          for (const f of batch) f.failed(err);
          if (batch.length === 0) log.warn({ err }, 'recording webhook successes failed; retrying later');
        }
      }
    }).finally(armDeferredTimer);
  }

  /**
   * `work` (the next claim) in one transaction with whatever waits to be recorded, recorded first. If the
   * transaction fails, what it was to record goes back to the queue and is recorded on its own.
   */
  function withRecords<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return exclusive(async () => {
      const { batch, force } = take();
      let committed: () => void = () => undefined;
      try {
        const out = await db.transaction().execute(async (trx) => {
          committed = await write(trx, batch, force);
          return work(trx);
        });
        committed();
        for (const f of batch) f.done(batch.length);
        return out;
      } catch (err) {
        finished = [...batch, ...finished];
        forceSuccesses ||= force;
        recordSoon();
        throw err;
      }
    }).finally(armDeferredTimer);
  }

  /**
   * Records finished attempts in one transaction: the delivery rows first (one statement per kind of outcome), and
   * only for those still there (a webhook deleted during its attempt leaves no log and disables nothing), then
   * their attempt rows in one insert, then the webhooks' state in the order the answers came. `force` writes every
   * throttled success (stop, idle, the throttle's timer).
   */
  async function write(trx: Executor, batch: Finished[], force: boolean): Promise<() => void> {
    if (batch.length === 0 && (deferredSuccess.size === 0 || !force)) return () => undefined;
    const nextState = new Map<string, HookState>();
    const pending = new Map(deferredSuccess);
    let nextRetry = Infinity;
    {
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
      const writeSuccess = async (webhookId: string, st: HookState, mustWrite: boolean) => {
        const at = pending.get(webhookId);
        if (at === undefined) return;
        if (!mustWrite && !st.failing && Date.now() - st.successWrittenAt < SUCCESS_WRITE_EVERY_MS) return;
        await recordWebhookSuccess(trx, webhookId, at);
        pending.delete(webhookId);
        st.successWrittenAt = Date.now();
        st.failing = false;
      };
      const disable = async (f: Finished, reason: string) => {
        await disableWebhook(trx, f.ctx.webhook_id, reason, now);
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
        const failingSince = await recordWebhookFailure(trx, hook, f.attemptedAt);
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
    }
    // Once committed: what this worker then knows.
    return () => {
      for (const [k, v] of nextState) hookState.set(k, v);
      if (hookState.size > 10_000) hookState.clear();
      deferredSuccess = pending;
      if (nextRetry < ownNextRetry) ownNextRetry = nextRetry;
    };
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

  async function flushDeferred(): Promise<void> {
    if (deferredSuccess.size === 0) return;
    forceSuccesses = true;
    await flushNow();
  }

  return {
    record(attempt) {
      return new Promise<number>((done, failed) => {
        finished.push({ ...attempt, done, failed });
        recordSoon();
      });
    },
    waiting: () => finished.length,
    flush: flushNow,
    withRecords,
    flushDeferred,
    async stop() {
      if (deferredTimer) clearTimeout(deferredTimer);
      deferredTimer = null;
      await flushNow();
      await flushDeferred();
    },
    earliestRetry: () => ownNextRetry,
    forgetPastRetry(now) {
      if (ownNextRetry <= now) ownNextRetry = Infinity;
    },
  };
}
