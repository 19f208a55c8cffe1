import { eventsToReplay, findDelivery, listDeliveryLog } from '../delivery/log-repository.js';
import { insertDeliveries, insertEvents } from '../delivery/repository.js';
import { wakeWorkers } from '../events/outbox.js';
import type { Actor } from '../shared/actor.js';
import { forEachChunk } from '../shared/db/chunks.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import { nowIso } from '../shared/time.js';
import type { ReplayBody } from './schemas.js';
import { findManagedWebhook } from './service.js';

// The operator and client side of delivery: what was sent and how it went, and ways to send again.

export const pingType = (vendor: string) => `com.${vendor}.webhook.ping`;
/** A replay sends at most this many events; a longer range is refused so one call cannot flood a receiver. */
export const MAX_REPLAY = 10_000;

export interface DeliveryView {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  created_at: string;
  completed_at: string | null;
  log: {
    attempted_at: string;
    status_code: number | null;
    duration_ms: number;
    outcome: string;
    error: string | null;
    response_body: string | null;
  }[];
}

export async function listDeliveries(
  deps: ServiceDeps,
  actor: Actor,
  webhookId: string,
  page: Page,
): Promise<{ total: number; deliveries: DeliveryView[] }> {
  const hook = await findManagedWebhook(deps, actor, webhookId);
  const { total, rows, attempts } = await listDeliveryLog(deps.db, hook.id, page);
  return {
    total,
    deliveries: rows.map((r) => ({
      ...r,
      next_attempt_at: r.status === 'pending' ? r.next_attempt_at : null,
      log: attempts
        .filter((a) => a.delivery_id === r.id)
        .map((a) => ({
          attempted_at: a.attempted_at,
          status_code: a.status_code,
          duration_ms: a.duration_ms,
          outcome: a.outcome,
          error: a.error,
          response_body: a.response_body,
        })),
    })),
  };
}

/** Sending needs an enabled webhook, and a verified one when WEBHOOK_REQUIRE_VERIFICATION is on. */
function assertSendable(deps: ServiceDeps, hook: { is_enabled: number; is_verified: number }): void {
  if (hook.is_enabled !== 1) throw new AppError('conflict', 'The webhook is disabled; enable it first');
  if (deps.config.webhookRequireVerification && hook.is_verified !== 1) {
    throw new AppError('conflict', 'The webhook has not passed the validation handshake, which this service requires before delivering');
  }
}

const newDelivery = (webhookId: string, eventId: string, now: string) => ({
  id: newId(),
  webhook_id: webhookId,
  event_id: eventId,
  status: 'pending' as const,
  attempts: 0,
  next_attempt_at: now,
  lease_until: null,
  leased_by: null,
  created_at: now,
  completed_at: null,
});

/** Sends one delivery's event again, as a new delivery with the same webhook-id (receivers may deduplicate). */
export async function redeliver(
  deps: ServiceDeps,
  actor: Actor,
  webhookId: string,
  deliveryId: string,
): Promise<{ id: string; event_id: string; status: string }> {
  const hook = await findManagedWebhook(deps, actor, webhookId);
  const original = await findDelivery(deps.db, hook.id, deliveryId);
  if (!original) throw notFound('delivery');
  assertSendable(deps, hook);
  const row = newDelivery(hook.id, original.event_id, nowIso());
  await deps.db.transaction().execute(async (trx) => {
    await insertDeliveries(trx, [row]);
    await wakeWorkers(trx);
  });
  return { id: row.id, event_id: row.event_id, status: row.status };
}

/**
 * Sends again every event of the webhook's scope and filter between `from` and `to`, including events that
 * happened while it was disabled.
 */
export async function replay(deps: ServiceDeps, actor: Actor, webhookId: string, range: ReplayBody): Promise<{ scheduled: number }> {
  const hook = await findManagedWebhook(deps, actor, webhookId);
  const from = Date.parse(range.from);
  const to = Date.parse(range.to);
  if (Number.isNaN(from)) throw fieldError('from', 'must be a date-time');
  if (Number.isNaN(to) || to < from) throw fieldError('to', 'must be a date-time not before from');
  assertSendable(deps, hook);
  const types = JSON.parse(hook.event_types) as string[];
  const events = await eventsToReplay(deps.db, {
    organizationId: hook.organization_id,
    labId: hook.lab_id,
    types,
    excludeType: pingType(deps.config.eventVendor),
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    limit: MAX_REPLAY + 1,
  });
  if (events.length > MAX_REPLAY) throw fieldError('from', `the range holds more than ${MAX_REPLAY} events; replay it in parts`);
  const now = nowIso();
  await deps.db.transaction().execute(async (trx) => {
    await forEachChunk(events, (chunk) =>
      insertDeliveries(
        trx,
        chunk.map((e) => newDelivery(hook.id, e.id, now)),
      ),
    );
    if (events.length > 0) await wakeWorkers(trx);
  });
  return { scheduled: events.length };
}

/** A test event for this webhook only: `com.<vendor>.webhook.ping` with the webhook's id, name and url. */
export async function ping(deps: ServiceDeps, actor: Actor, webhookId: string): Promise<{ id: string; event_id: string; status: string }> {
  const hook = await findManagedWebhook(deps, actor, webhookId);
  assertSendable(deps, hook);
  const now = nowIso();
  const event = {
    specversion: '1.0',
    id: newId(),
    source: deps.config.eventSource,
    type: pingType(deps.config.eventVendor),
    datacontenttype: 'application/json',
    time: now,
    data: { webhook: { id: hook.id, name: hook.name, url: hook.url } },
  };
  const row = newDelivery(hook.id, event.id, now);
  await deps.db.transaction().execute(async (trx) => {
    await insertEvents(trx, [
      {
        id: event.id,
        type: event.type,
        organization_id: hook.organization_id,
        lab_id: hook.lab_id,
        payload: JSON.stringify(event),
        created_at: now,
      },
    ]);
    await insertDeliveries(trx, [row]);
    await wakeWorkers(trx);
  });
  return { id: row.id, event_id: event.id, status: row.status };
}
