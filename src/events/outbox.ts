import { sql } from 'kysely';
import { insertDeliveries } from '../delivery/repository.js';
import { deliverySignal, PG_CHANNEL } from '../delivery/signal.js';
import type { Config } from '../shared/config.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
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
}

/**
 * Writes one event to the outbox. Call it with the transaction of the change that caused it: the event exists
 * if and only if the change committed, which is what lets delivery promise that no event is lost.
 */
export type EventConfig = Pick<Config, 'eventVendor' | 'eventSource' | 'webhookRequireVerification'>;

export async function emitEvent(ex: Executor, config: EventConfig, input: EmitInput): Promise<CloudEvent> {
  const event: CloudEvent = {
    specversion: '1.0',
    id: newId(),
    source: config.eventSource,
    type: fullEventType(config.eventVendor, input.type),
    datacontenttype: 'application/json',
    time: nowIso(),
    data: { [dataKeyOf(input.type)]: input.resource },
  };
  await ex
    .insertInto('events')
    .values({ id: event.id, type: event.type, organization_id: input.organizationId, lab_id: input.labId, payload: JSON.stringify(event), created_at: event.time })
    .execute();
  await fanOut(ex, config, event, input.organizationId, input.labId);
  return event;
}

/**
 * Queues one delivery per matching enabled webhook, in the same transaction as the event, so matching uses the
 * webhooks as they are when the change commits. Lab webhooks get their lab's events; organization webhooks get
 * all of the organization's. An empty event_types list means every event.
 */
export async function fanOut(ex: Executor, config: EventConfig, event: CloudEvent, organizationId: string, labId: string | null, onlyWebhookId?: string): Promise<number> {
  let q = ex.selectFrom('webhooks').select(['id', 'event_types', 'is_verified'])
    .where('organization_id', '=', organizationId).where('is_enabled', '=', 1);
  if (onlyWebhookId) q = q.where('id', '=', onlyWebhookId);
  else q = labId === null ? q.where('lab_id', 'is', null) : q.where((eb) => eb.or([eb('lab_id', 'is', null), eb('lab_id', '=', labId)]));
  const hooks = (await q.execute()).filter((w) => {
    if (config.webhookRequireVerification && w.is_verified !== 1) return false;
    const types = JSON.parse(w.event_types) as string[];
    return onlyWebhookId !== undefined || types.length === 0 || types.includes(event.type);
  });
  if (hooks.length === 0) return 0;
  await insertDeliveries(ex, hooks.map((w) => ({
    id: newId(), webhook_id: w.id, event_id: event.id, status: 'pending' as const, attempts: 0, next_attempt_at: event.time,
    lease_until: null, leased_by: null, created_at: event.time, completed_at: null,
  })));
  await wakeWorkers(ex);
  return hooks.length;
}

/** NOTIFY reaches workers in other processes when the transaction commits; the in-process kick, this one's. */
export async function wakeWorkers(ex: Executor): Promise<void> {
  if (isPostgres(ex)) await sql`select pg_notify(${PG_CHANNEL}, '')`.execute(ex);
  deliverySignal.kick();
}
