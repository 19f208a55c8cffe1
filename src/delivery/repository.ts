import { type SelectQueryBuilder, sql } from 'kysely';
import { forEachChunk } from '../shared/db/chunks.js';
import { type Db, type Executor, isPostgres } from '../shared/db/database.js';
import type { Database, EventsTable, WebhookAttemptsTable, WebhookDeliveriesTable } from '../shared/db/schema.js';
import { PG_CHANNEL } from './signal.js';
import type { LaneBound } from './slots.js';

// The queue (docs/decisions/0013-webhook-tables.md): events and their deliveries as the outbox writes them, and
// as the worker claims, sends and records them.

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

/**
 * Claims up to `limit` due deliveries for this worker until `leaseUntil`. On PostgreSQL the rows are locked with
 * FOR UPDATE SKIP LOCKED, so concurrent workers never claim the same delivery; an expired lease (a worker that
 * died) makes the delivery claimable again, which is what makes delivery at-least-once.
 *
 * Fair across webhooks: each webhook gets at most its `room` (what this worker may still start for it; a webhook
 * not in the map: `perWebhook`), its oldest first, so one receiver's backlog cannot take every slot while other
 * webhooks wait. Webhooks without room are left out first; the ranking looks at the oldest CANDIDATES_PER_SLOT
 * x `limit` of the rest, so a claim costs the same with a backlog of ten thousand (ranking all of it took
 * milliseconds a claim, and cut a burst's rate to a third). A webhook with more due than that can hide others' deliveries behind its
 * own: the claim then fills that webhook's room, and the worker claims again at once, without it (worker.ts).
 * The window function sits in a subquery because PostgreSQL refuses FOR UPDATE beside one; the due conditions
 * are repeated at the locking level, where PostgreSQL re-checks them on a row another worker has just leased.
 *
 * `lane` (slots.ts: the slow lane): slow webhooks with room for one attempt each, more of them than the lane has
 * room for; of their deliveries the claim takes the oldest `lane.free` in all. Without it the query is unchanged.
 */
const CANDIDATES_PER_SLOT = 4;

export async function claimDue(
  db: Db,
  workerId: string,
  now: string,
  leaseUntil: string,
  limit: number,
  perWebhook: number,
  room: ReadonlyMap<string, number>,
  lane: LaneBound | null = null,
) {
  const due = <Q extends SelectQueryBuilder<Database, 'webhook_deliveries', object>>(q: Q): Q =>
    q
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)])) as Q;
  const full = [...room].filter(([, n]) => n <= 0).map(([id]) => id);
  const partial = [...room].filter(([, n]) => n > 0);
  let candidates = due(db.selectFrom('webhook_deliveries').select(['id', 'webhook_id', 'next_attempt_at']));
  if (full.length > 0) candidates = candidates.where('webhook_id', 'not in', full);
  // By next_attempt_at alone, as the index runs: with `id` too, a burst (one timestamp) was sorted whole each time.
  const ranked = db
    .selectFrom(
      candidates
        .orderBy('next_attempt_at')
        .limit(limit * CANDIDATES_PER_SLOT)
        .as('k'),
    )
    .select([
      'k.id',
      'k.webhook_id',
      'k.next_attempt_at',
      sql<number>`row_number() over (partition by k.webhook_id order by k.next_attempt_at, k.id)`.as('rn'),
    ]);
  // Counts are this worker's own small integers, inlined: PostgreSQL would type bare parameters in a CASE as text.
  const allowance =
    partial.length === 0
      ? sql<number>`${sql.lit(perWebhook)}`
      : sql<number>`case ${sql.ref('c.webhook_id')} ${sql.join(
          partial.map(([id, n]) => sql`when ${id} then ${sql.lit(Math.trunc(n))}`),
          sql` `,
        )} else ${sql.lit(perWebhook)} end`;
  const allowed = db.selectFrom(ranked.as('c')).where('c.rn', '<=', allowance);
  const inLane = lane && sql<number>`case when ${sql.ref('c.webhook_id')} in (${sql.join(lane.hooks)}) then 1 else 0 end`;
  const fair =
    !lane || !inLane
      ? allowed.select('c.id').orderBy('c.next_attempt_at').orderBy('c.id').limit(limit)
      : db
          .selectFrom(
            allowed
              .select([
                'c.id',
                'c.next_attempt_at',
                inLane.as('slow'),
                sql<number>`row_number() over (partition by ${inLane} order by ${sql.ref('c.next_attempt_at')}, ${sql.ref('c.id')})`.as(
                  'ln',
                ),
              ])
              .as('l'),
          )
          .select('l.id')
          .where((eb) => eb.or([eb('l.slow', '=', sql.lit(0)), eb('l.ln', '<=', sql.lit(lane.free))]))
          .orderBy('l.next_attempt_at')
          .orderBy('l.id')
          .limit(limit);
  // SQLite runs one writer at a time, so the chosen rows are still due when updated; an outer level there made
  // it scan the whole due index instead of looking the chosen ids up.
  const pick = isPostgres(db)
    ? due(db.selectFrom('webhook_deliveries').select('id')).where('id', 'in', fair).forUpdate().skipLocked()
    : fair;
  return db
    .updateTable('webhook_deliveries')
    .set({ lease_until: leaseUntil, leased_by: workerId })
    .where('id', 'in', pick)
    .returningAll()
    .execute();
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
