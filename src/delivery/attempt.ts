import type { Config } from '../shared/config.js';
import type { Db } from '../shared/db/database.js';
import { newId } from '../shared/ids.js';
import type { Metrics } from '../shared/metrics.js';
import { formatOf } from './formats.js';
import type { Recorder } from './recorder.js';
import * as repo from './repository.js';
import { afterAttempt } from './rules.js';
import type { Sender, SendResult } from './sender.js';
import { type Tracer, wallNow } from './trace.js';

export interface AttemptDeps {
  db: Db;
  config: Config;
  sender: Pick<Sender, 'send'>;
  recorder: Pick<Recorder, 'record'>;
  metrics?: Metrics;
  /** WEBHOOK_TRACE (trace.ts): the attempt's steps from the hand-off to the thread to its record. */
  tracer?: Tracer;
}

/**
 * One attempt of a claimed delivery, resolved once the receiver answered: its result (none when nothing was sent),
 * and its record, which commits with the next claim (recorder.ts).
 */
export type Attempt = (ctx: repo.SendContext) => Promise<{ result?: SendResult; recorded: Promise<unknown> }>;

const nothingToRecord = { recorded: Promise.resolve() };

export function createAttempt(deps: AttemptDeps): Attempt {
  const { db, config, sender, recorder, tracer } = deps;
  const nowIso = () => new Date().toISOString();

  return async function deliver(ctx) {
    const deliveryId = ctx.id;
    if (!ctx.url || ctx.is_enabled !== 1) {
      // Deleted or disabled since the event: not sent. A replay can send it once the webhook is enabled again.
      await repo.finishDelivery(db, deliveryId, 'cancelled', ctx.attempts, nowIso());
      return nothingToRecord;
    }
    if (config.webhookRequireVerification && ctx.is_verified !== 1) {
      if (ctx.verify_pending === 1) {
        // The handshake for the current URL has not run yet: hold the delivery (no attempt is counted).
        await repo.scheduleRetry(db, deliveryId, ctx.attempts, new Date(Date.now() + Math.max(config.webhookPollMs, 250)).toISOString());
        return nothingToRecord;
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
      return nothingToRecord;
    }
    const keys: string[] = [];
    if (ctx.is_signed === 1) {
      keys.push(ctx.signing_key!);
      if (ctx.previous_signing_key && ctx.previous_key_expires_at && Date.parse(ctx.previous_key_expires_at) > Date.now())
        keys.push(ctx.previous_signing_key);
    }
    const attemptedAt = nowIso();
    const posted = tracer ? wallNow() : 0;
    const result: SendResult = await sender.send({
      url: ctx.url,
      messageId: ctx.event_id,
      payload: ctx.payload,
      format: formatOf(ctx.content_type),
      keys,
    });
    const attemptsDone = ctx.attempts + 1;
    const decision = afterAttempt(result, attemptsDone, config.webhookRetryScheduleMs);
    deps.metrics?.delivery.attempts.inc({ outcome: result.outcome });
    const back = tracer ? wallNow() : 0;
    // Recorded with whatever else finished meanwhile, in the next claim's transaction (recorder.ts).
    const recorded = recorder.record({ ctx, result, attemptedAt, answeredAt: nowIso(), attemptsDone, decision });
    if (!tracer) return { result, recorded };
    return {
      result,
      recorded: recorded.then((recordBatch) => {
        const t = result.times;
        tracer.end(deliveryId, ctx.event_id, ctx.event_time, {
          posted,
          ...(t ? { threadReceived: t.received, requested: t.requested, answered: t.answered } : {}),
          back,
          recorded: wallNow(),
          recordBatch,
        });
      }),
    };
  };
}
