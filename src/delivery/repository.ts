import { sql } from 'kysely';
import { forEachChunk } from '../shared/db/chunks.js';
import { type Db, type Executor, isPostgres } from '../shared/db/database.js';
import type { EventsTable, WebhookAttemptsTable, WebhookDeliveriesTable } from '../shared/db/schema.js';
import { PG_CHANNEL } from './signal.js';

// The queue (docs/decisions/0013-webhook-tables.md): events and their deliveries as the outbox writes them, and
// as the worker claims (claim-repository.ts), sends and records them.

export type DeliveryRow = WebhookDeliveriesTable;

export async function insertEvents(ex: Executor, rows: EventsTable[]): Promise<void> {
  await forEachChunk(rows, (chunk) => ex.insertInto('events').values(chunk).execute());
}

export async function insertDeliveries(ex: Executor, rows: DeliveryRow[]): Promise<void> {
  if (rows.length > 0) await ex.insertInto('webhook_deliveries').values(rows).execute();
}

/** Inserts deliveries and wakes other processes' workers in one statement (PostgreSQL: the NOTIFY in the same statement). */
export async function insertDeliveriesAndNotify(ex: Executor, rows: DeliveryRow[]): Promise<void> {
  if (rows.length === 0) return;
  if (!isPostgres(ex)) return insertDeliveries(ex, rows);
  await ex
    .with('inserted', (db) => db.insertInto('webhook_deliveries').values(rows).returning('id'))
    .selectNoFrom(sql<string>`pg_notify(${PG_CHANNEL}, current_schema())`.as('notified'))
    .execute();
}

/** On PostgreSQL, NOTIFY at commit names the committing schema, so only that schema's workers wake. */
export async function notifyWorkers(ex: Executor): Promise<void> {
  if (isPostgres(ex)) await sql`select pg_notify(${PG_CHANNEL}, current_schema())`.execute(ex);
}

/** Everything one attempt needs: the event's JSON and the webhook's current settings. */
const sendContext = (ex: Executor) =>
  ex
    .selectFrom('webhook_deliveries')
    .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
    .leftJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.attempts',
      'webhook_deliveries.webhook_id',
      'webhook_deliveries.leased_by',
      'webhooks.organization_id',
      'events.id as event_id',
      'events.payload',
      'events.created_at as event_time',
      'webhooks.url',
      'webhooks.is_enabled',
      'webhooks.is_signed',
      'webhooks.signing_key',
      'webhooks.previous_signing_key',
      'webhooks.previous_key_expires_at',
      'webhooks.content_type',
      'webhooks.failing_since',
      'webhooks.last_success_at',
      'webhooks.is_verified',
      'webhooks.verify_pending',
    ]);

export type SendContext = Awaited<ReturnType<ReturnType<typeof sendContext>['execute']>>[number];

/** Rows per multi-row statement: well under SQLite's bound-parameter limit (9 columns an attempt). */
const CHUNK = 500;

/** The send context of a whole claimed batch, in one query per chunk; a delivery deleted meanwhile is missing. */
export async function loadForSendMany(ex: Executor, deliveryIds: string[]): Promise<SendContext[]> {
  const out: SendContext[] = [];
  for (let i = 0; i < deliveryIds.length; i += CHUNK)
    out.push(
      ...(await sendContext(ex)
        .where('webhook_deliveries.id', 'in', deliveryIds.slice(i, i + CHUNK))
        .execute()),
    );
  return out;
}

export async function insertAttempts(ex: Executor, rows: WebhookAttemptsTable[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK)
    await ex
      .insertInto('webhook_attempts')
      .values(rows.slice(i, i + CHUNK))
      .execute();
}

/** Finishes many deliveries alike in one statement per chunk; returns the ids that still existed. */
export async function finishDeliveries(
  ex: Executor,
  ids: string[],
  status: 'succeeded' | 'failed',
  attempts: number,
  now: string,
): Promise<string[]> {
  const done: string[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await ex
      .updateTable('webhook_deliveries')
      .set({ status, attempts, completed_at: now, lease_until: null, leased_by: null })
      .where('id', 'in', ids.slice(i, i + CHUNK))
      .returning('id')
      .execute();
    for (const r of rows) done.push(r.id);
  }
  return done;
}

export async function insertAttempt(ex: Executor, row: WebhookAttemptsTable): Promise<void> {
  await ex.insertInto('webhook_attempts').values(row).execute();
}

/** Returns false when the delivery is gone (its webhook was deleted meanwhile). */
export async function finishDelivery(
  ex: Executor,
  id: string,
  status: 'succeeded' | 'failed' | 'cancelled',
  attempts: number,
  now: string,
): Promise<boolean> {
  const r = await ex
    .updateTable('webhook_deliveries')
    .set({ status, attempts, completed_at: now, lease_until: null, leased_by: null })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Returns false when the delivery is gone (its webhook was deleted meanwhile). */
export async function scheduleRetry(ex: Executor, id: string, attempts: number, nextAttemptAt: string): Promise<boolean> {
  const r = await ex
    .updateTable('webhook_deliveries')
    .set({ attempts, next_attempt_at: nextAttemptAt, lease_until: null, leased_by: null })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * When the next pending delivery can be claimed: its next attempt, or, while a worker holds it, the end of that
 * lease. Leased ones counted as due at once made an idle worker spin on claims that found nothing (beside a busy
 * worker on PostgreSQL, or after a restart, until the dead process's leases expired).
 */
export async function nextDueAt(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select(
      sql<
        string | null
      >`min(case when lease_until is not null and lease_until > next_attempt_at then lease_until else next_attempt_at end)`.as('at'),
    )
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return (row?.at as string | null | undefined) ?? null;
}

export async function queueStats(db: Db): Promise<{ depth: number; oldest: string | null }> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return { depth: Number(row.n), oldest: (row.oldest as string | null) ?? null };
}

/** Drops completed deliveries, their attempts, and events nothing waits for, older than `before`. */
export async function prune(db: Db, before: string): Promise<{ events: number; deliveries: number; attempts: number }> {
  return db.transaction().execute(async (trx) => {
    const attempts = await trx.deleteFrom('webhook_attempts').where('attempted_at', '<', before).executeTakeFirst();
    const deliveries = await trx
      .deleteFrom('webhook_deliveries')
      .where('status', '!=', 'pending')
      .where('created_at', '<', before)
      .executeTakeFirst();
    const events = await trx
      .deleteFrom('events')
      .where('created_at', '<', before)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_deliveries')
              .select(sql`1`.as('x'))
              .whereRef('webhook_deliveries.event_id', '=', 'events.id')
              .where('webhook_deliveries.status', '=', 'pending'),
          ),
        ),
      )
      .executeTakeFirst();
    return {
      events: Number(events.numDeletedRows),
      deliveries: Number(deliveries.numDeletedRows),
      attempts: Number(attempts.numDeletedRows),
    };
  });
}
