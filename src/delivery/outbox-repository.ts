import { type CompiledQuery, sql } from 'kysely';
import type { Executor } from '../shared/db/database.js';
import { precompiled } from '../shared/db/precompiled.js';
import type { EventsTable } from '../shared/db/schema.js';
import type { DeliveryRow } from './repository.js';
import { PG_CHANNEL } from './signal.js';

// The outbox's writes for a change that emits one event (src/events/outbox.ts emitEventWith), as compiled statements
// the change runs in one batch with its own (src/shared/db/precompiled.ts runWrites; docs/decisions/0030-precompiled-writes.md):
// built and compiled once per shape, not for every request.

const EVENT_COLUMNS = ['id', 'type', 'organization_id', 'lab_id', 'payload', 'created_at'] as const;
const DELIVERY_COLUMNS = [
  'id',
  'webhook_id',
  'event_id',
  'status',
  'attempts',
  'next_attempt_at',
  'lease_until',
  'leased_by',
  'created_at',
  'completed_at',
] as const;

/** Deliveries of one event are one insert; beyond this many rows (webhooks of one organization) it is compiled afresh. */
const PRECOMPILED_DELIVERIES = 16;

const eventInsert = precompiled((ex, _shape, ...v: unknown[]) =>
  ex.insertInto('events').values(Object.fromEntries(EVENT_COLUMNS.map((c, i) => [c, v[i]])) as unknown as EventsTable),
);

const deliveriesInsert = precompiled((ex, shape, ...v: unknown[]) =>
  ex
    .insertInto('webhook_deliveries')
    .values(
      Array.from(
        { length: Number(shape) },
        (_, r) => Object.fromEntries(DELIVERY_COLUMNS.map((c, i) => [c, v[r * DELIVERY_COLUMNS.length + i]])) as unknown as DeliveryRow,
      ),
    ),
);

const notify = precompiled((ex) => ex.selectNoFrom(sql<string>`pg_notify(${PG_CHANNEL}, current_schema())`.as('notified')));

/** The event's row, as a statement to run in the change's batch. */
export const eventInsertQuery = (ex: Executor, row: EventsTable): CompiledQuery =>
  eventInsert.bind(ex, 'row', ...EVENT_COLUMNS.map((c) => row[c]));

/** Its deliveries (at least one) as one multi-row insert. */
export function deliveriesInsertQuery(ex: Executor, rows: DeliveryRow[]): CompiledQuery {
  if (rows.length > PRECOMPILED_DELIVERIES) return ex.insertInto('webhook_deliveries').values(rows).compile();
  return deliveriesInsert.bind(ex, String(rows.length), ...rows.flatMap((r) => DELIVERY_COLUMNS.map((c) => r[c])));
}

/**
 * PostgreSQL: wakes other processes' workers at commit (NOTIFY names the committing schema, so only its workers
 * wake); the last statement of a batch, as a select. SQLite has no other process to wake: null.
 */
export const notifyWorkersQuery = (ex: Executor, postgres: boolean): CompiledQuery | null => (postgres ? notify.bind(ex, 'notify') : null);
