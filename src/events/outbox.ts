import type { CompiledQuery } from 'kysely';
import { deliveriesInsertQuery, eventInsertQuery, notifyWorkersQuery } from '../delivery/outbox-repository.js';
import { insertDeliveries, insertDeliveriesAndNotify, insertEvents, notifyWorkers } from '../delivery/repository.js';
import { deliverySignal } from '../delivery/signal.js';
import { subscribersOf } from '../delivery/webhook-repository.js';
import type { Config } from '../shared/config.js';
import { CHUNK_SIZE } from '../shared/db/chunks.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import { runWrites } from '../shared/db/precompiled.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';
import { dataKeyOf, fullEventType, type ShortEventType } from './types.js';

export interface CloudEvent<T = unknown> {
  specversion: '1.0';
  id: string;
  source: string;
  type: string;
  datacontenttype: 'application/json';
  time: string;
  data: Record<string, T>;
}

export interface EmitInput {
  type: ShortEventType;
  organizationId: string;
  labId: string | null;
  resource: unknown;
  /** More keys of `data` beside the resource (the alert kinds' `alert`: src/events/types.ts dataKeysOf). */
  extra?: Record<string, unknown>;
}

export type EventConfig = Pick<Config, 'eventVendor' | 'eventSource' | 'webhookRequireVerification'>;

/**
 * Writes one event to the outbox. Call it with the transaction of the change that caused it: the event exists
 * if and only if the change committed, which is what lets delivery promise that no event is lost.
 */
export async function emitEvent(ex: Executor, config: EventConfig, input: EmitInput, opts: EmitOptions = {}): Promise<CloudEvent> {
  return (await emitEvents(ex, config, [input], opts))[0]!;
}

export interface EmitOptions {
  /**
   * The organizations' subscribers, already read in the change's own transaction (subscribersJson in
   * src/delivery/webhook-repository.ts, a column of the change's first statement): saves a statement per event.
   */
  subscribers?: Map<string, { id: string; lab_id: string | null; event_types: string }[]>;
}

/**
 * Writes many events and their deliveries with a fixed number of statements: one webhook lookup per
 * organization, chunked inserts, one wake-up. Bulk changes (a location rename, a lab migration) come here.
 */
export async function emitEvents(ex: Executor, config: EventConfig, inputs: EmitInput[], opts: EmitOptions = {}): Promise<CloudEvent[]> {
  if (inputs.length === 0) return [];
  const time = nowIso();
  const events = inputs.map((input) => cloudEvent(config, input, time));
  await insertEvents(
    ex,
    events.map((event, i) => eventRow(event, inputs[i]!)),
  );

  const deliveries = [];
  for (const organizationId of new Set(inputs.map((i) => i.organizationId))) {
    const known = opts.subscribers?.get(organizationId);
    const hooks = known ? known.map(toMatchable) : await matchableWebhooks(ex, config, organizationId);
    for (const [i, event] of events.entries()) {
      const input = inputs[i]!;
      if (input.organizationId !== organizationId) continue;
      for (const hook of hooks) {
        if (!matches(hook, event.type, input.labId)) continue;
        deliveries.push(deliveryRow(hook.id, event.id, time));
      }
    }
  }
  // The last chunk's statement also wakes other processes' workers (NOTIFY, delivered at commit), this one's at once.
  for (let i = 0; i < deliveries.length; i += CHUNK_SIZE) {
    const chunk = deliveries.slice(i, i + CHUNK_SIZE);
    await (i + CHUNK_SIZE >= deliveries.length ? insertDeliveriesAndNotify(ex, chunk) : insertDeliveries(ex, chunk));
  }
  if (deliveries.length > 0) deliverySignal.kick();
  return events;
}

const cloudEvent = (config: EventConfig, input: EmitInput, time: string): CloudEvent => ({
  specversion: '1.0',
  id: newId(),
  source: config.eventSource,
  type: fullEventType(config.eventVendor, input.type),
  datacontenttype: 'application/json',
  time,
  data: { [dataKeyOf(input.type)]: input.resource, ...input.extra },
});

const eventRow = (event: CloudEvent, input: EmitInput) => ({
  id: event.id,
  type: event.type,
  organization_id: input.organizationId,
  lab_id: input.labId,
  payload: JSON.stringify(event),
  created_at: event.time,
});

const deliveryRow = (webhookId: string, eventId: string, time: string) => ({
  id: newId(),
  webhook_id: webhookId,
  event_id: eventId,
  status: 'pending' as const,
  attempts: 0,
  next_attempt_at: time,
  lease_until: null,
  leased_by: null,
  created_at: time,
  completed_at: null,
});

/**
 * One event, written with the change's own writes in one batch (runWrites: one statement on PostgreSQL, the
 * change's rows, the event, its deliveries and the wake-up; one after the other on SQLite), after them. The hot
 * writes come here (docs/decisions/0030-precompiled-writes.md): `writes` are their compiled statements, and
 * `subscribers` the organization's webhooks read by the change's first statement (subscribersJson in
 * src/delivery/webhook-repository.ts), so the event costs no read of its own.
 */
export async function emitEventWith(
  ex: Executor,
  config: EventConfig,
  input: EmitInput,
  subscribers: { id: string; lab_id: string | null; event_types: string }[],
  writes: CompiledQuery[],
): Promise<CloudEvent> {
  const event = cloudEvent(config, input, nowIso());
  const batch = [...writes, eventInsertQuery(ex, eventRow(event, input))];
  const deliveries = subscribers
    .map(toMatchable)
    .filter((hook) => matches(hook, event.type, input.labId))
    .map((hook) => deliveryRow(hook.id, event.id, event.time));
  if (deliveries.length > 0) {
    batch.push(deliveriesInsertQuery(ex, deliveries));
    const notify = notifyWorkersQuery(ex, isPostgres(ex));
    if (notify) batch.push(notify);
  }
  await runWrites(ex, batch);
  if (deliveries.length > 0) deliverySignal.kick();
  return event;
}

interface MatchableWebhook {
  id: string;
  labId: string | null;
  types: string[];
}

/** The organization's webhooks that may receive events now, as the event's own transaction sees them. */
async function matchableWebhooks(ex: Executor, config: EventConfig, organizationId: string): Promise<MatchableWebhook[]> {
  const rows = await subscribersOf(ex, organizationId, config.webhookRequireVerification);
  return rows.map(toMatchable);
}

const toMatchable = (w: { id: string; lab_id: string | null; event_types: string }): MatchableWebhook => ({
  id: w.id,
  labId: w.lab_id,
  types: JSON.parse(w.event_types) as string[],
});

/** Lab webhooks get their lab's events; organization webhooks all of it; [] event_types means every type. */
const matches = (hook: MatchableWebhook, type: string, labId: string | null): boolean =>
  (hook.labId === null || hook.labId === labId) && (hook.types.length === 0 || hook.types.includes(type));

/**
 * NOTIFY reaches workers in other processes when the transaction commits; the in-process kick, this one's. The
 * payload names the schema, so workers of other Labstock schemas in the same database are not woken for nothing.
 */
export async function wakeWorkers(ex: Executor): Promise<void> {
  await notifyWorkers(ex);
  deliverySignal.kick();
}
