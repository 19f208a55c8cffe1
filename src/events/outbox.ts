import type { Config } from '../shared/config.js';
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
}

/**
 * Writes one event to the outbox. Call it with the transaction of the change that caused it: the event exists
 * if and only if the change committed, which is what lets delivery promise that no event is lost.
 */
export async function emitEvent(ex: Executor, config: Pick<Config, 'eventVendor' | 'eventSource'>, input: EmitInput): Promise<CloudEvent> {
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
  return event;
}
