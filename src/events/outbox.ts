import { insertDeliveries, insertDeliveriesAndNotify, insertEvents, notifyWorkers } from '../delivery/repository.js';
import { deliverySignal } from '../delivery/signal.js';
import { subscribersOf } from '../delivery/webhook-repository.js';
import type { Config } from '../shared/config.js';
import { CHUNK_SIZE } from '../shared/db/chunks.js';
import type { Executor } from '../shared/db/database.js';
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
  const events = inputs.map(
    (input): CloudEvent => ({
      specversion: '1.0',
      id: newId(),
      source: config.eventSource,
      type: fullEventType(config.eventVendor, input.type),
      datacontenttype: 'application/json',
      time,
      data: { [dataKeyOf(input.type)]: input.resource, ...input.extra },
    }),
  );
  const rows = events.map((event, i) => ({
    id: event.id,
    type: event.type,
    organization_id: inputs[i]!.organizationId,
    lab_id: inputs[i]!.labId,
    payload: JSON.stringify(event),
    created_at: time,
  }));
  await insertEvents(ex, rows);

  const deliveries = [];
  for (const organizationId of new Set(inputs.map((i) => i.organizationId))) {
    const known = opts.subscribers?.get(organizationId);
    const hooks = known ? known.map(toMatchable) : await matchableWebhooks(ex, config, organizationId);
    for (const [i, event] of events.entries()) {
      const input = inputs[i]!;
      if (input.organizationId !== organizationId) continue;
      for (const hook of hooks) {
        if (!matches(hook, event.type, input.labId)) continue;
        deliveries.push({
          id: newId(),
          webhook_id: hook.id,
          event_id: event.id,
          status: 'pending' as const,
          attempts: 0,
          next_attempt_at: time,
          lease_until: null,
          leased_by: null,
          created_at: time,
          completed_at: null,
        });
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
