import { type RawBuilder, sql } from 'kysely';
import { type Executor, isPostgres } from '../shared/db/database.js';
import { type DeliveryRow, loadForSendMany, type SendContext } from './repository.js';
import type { LaneBound } from './slots.js';

/** What the claim knows of the worker's own attempts (slots.ts). */
export interface ClaimSlots {
  /** Attempts a webhook not in `room` may start: WEBHOOK_CONCURRENCY_PER_ENDPOINT. */
  perWebhook: number;
  /** What each webhook may still start (0: none); a webhook not listed: `perWebhook`. */
  room: ReadonlyMap<string, number>;
  /** Attempts in flight per webhook and per organization: the turns each has had. */
  hooks: ReadonlyMap<string, number>;
  orgs: ReadonlyMap<string, number>;
  /** Slow webhooks sharing the slow lane, when more than it has room for (null: no bound). */
  lane: LaneBound | null;
}

/** The oldest due deliveries the claim looks at, per slot asked for, before it looks for other webhooks' heads. */
const CANDIDATES_PER_SLOT = 4;

/**
 * Which due deliveries a claim of up to `limit` takes (the ids, as a subquery). On PostgreSQL the rows are locked with
 * FOR UPDATE SKIP LOCKED, so concurrent workers never claim the same delivery; an expired lease (a worker that
 * died) makes the delivery claimable again, which is what makes delivery at-least-once.
 *
 * Turns, not age (issue 22): each organization with due work gets a slot before any gets another, and within an
 * organization each webhook before any of its webhooks gets another; a turn counts the attempts already in flight
 * on this worker. Oldest first only breaks ties. So while org A's receivers hold every slot with a backlog, the
 * next freed slot goes to org B's delivery however much older A's backlog is (once, the oldest due delivery won each
 * freed slot and B waited for the whole backlog). A webhook never exceeds its room (slots.ts).
 *
 * Cheap with a backlog: the candidates are the oldest CANDIDATES_PER_SLOT x `limit` due deliveries (no webhook at
 * its limit) and, only when those are that many (a backlog may hide other webhooks' work behind them), the first
 * due deliveries of each webhook with pending work: found by seeks in deliveries_pending_webhook_idx, one webhook
 * after the next (a loose index scan), never by reading the backlog. The window functions rank those few rows.
 */
function claimCondition(db: Executor, now: string, limit: number, slots: ClaimSlots): RawBuilder<unknown> {
  const pg = isPostgres(db);
  const full = [...slots.room].filter(([, n]) => n <= 0).map(([id]) => id);
  const window = limit * CANDIDATES_PER_SLOT;
  const perHead = Math.max(1, Math.min(slots.perWebhook, limit));
  const notFull = (col: string) => (full.length > 0 ? sql`and ${sql.ref(col)} not in (${sql.join(full)})` : sql``);
  // 'pending' is a literal, as in the partial index's predicate; counts are this worker's own small integers,
  // inlined too: PostgreSQL would type bare parameters in a CASE as text.
  const due = (t: string) =>
    sql`${sql.ref(`${t}.status`)} = 'pending' and ${sql.ref(`${t}.next_attempt_at`)} <= ${now}
      and (${sql.ref(`${t}.lease_until`)} is null or ${sql.ref(`${t}.lease_until`)} < ${now})`;
  const byHook = (col: string, counts: Iterable<[string, number]>, otherwise: number): RawBuilder<number> => {
    const list = [...counts];
    if (list.length === 0) return sql<number>`${sql.lit(otherwise)}`;
    const whens = list.map(([id, n]) => sql`when ${id} then ${sql.lit(Math.trunc(n))}`);
    return sql<number>`case ${sql.ref(col)} ${sql.join(whens, sql` `)} else ${sql.lit(otherwise)} end`;
  };
  // A webhook's first due deliveries: PostgreSQL joins them laterally; SQLite has no LATERAL, but looks the ids of
  // a correlated list up by primary key, one webhook at a time.
  const headsOf = (columns: RawBuilder<unknown>) =>
    sql`select ${columns} from webhook_deliveries h1 where h1.webhook_id = h.webhook_id and ${due('h1')}
      order by h1.next_attempt_at limit ${sql.lit(perHead)}`;
  const heads = pg
    ? sql`select c.id, c.webhook_id, c.next_attempt_at from hooks h
        cross join lateral (${headsOf(sql`h1.id, h1.webhook_id, h1.next_attempt_at`)}) c
        where h.webhook_id is not null ${notFull('h.webhook_id')}`
    : sql`select c.id, c.webhook_id, c.next_attempt_at from hooks h
        join webhook_deliveries c on c.id in (${headsOf(sql`h1.id`)})
        where h.webhook_id is not null ${notFull('h.webhook_id')}`;
  const hookLoad = byHook('a.webhook_id', slots.hooks, 0);
  const orgLoad = byHook('t.org', slots.orgs, 0);
  const inLane = slots.lane && sql`case when ${sql.ref('t.webhook_id')} in (${sql.join(slots.lane.hooks)}) then 1 else 0 end`;
  const turnOrder = sql`t.org_turn, t.turn, t.next_attempt_at, t.id`;
  const fair = sql`
    with recursive
    win as (
      select w1.id, w1.webhook_id, w1.next_attempt_at from webhook_deliveries w1
      where ${due('w1')} ${notFull('w1.webhook_id')}
      order by w1.next_attempt_at limit ${sql.lit(window)}
    ),
    hooks(webhook_id) as (
      select (select s1.webhook_id from webhook_deliveries s1 where s1.status = 'pending' order by s1.webhook_id limit 1)
      where (select count(*) from win) >= ${sql.lit(window)}
      union all
      select (select s2.webhook_id from webhook_deliveries s2 where s2.status = 'pending' and s2.webhook_id > h.webhook_id
              order by s2.webhook_id limit 1)
      from hooks h where h.webhook_id is not null
    ),
    candidates as (select id, webhook_id, next_attempt_at from win union ${heads}),
    ranked as (
      select c.id, c.webhook_id, c.next_attempt_at, w.organization_id as org,
        row_number() over (partition by c.webhook_id order by c.next_attempt_at, c.id) as rn
      from candidates c left join webhooks w on w.id = c.webhook_id
    ),
    allowed as (
      select a.id, a.webhook_id, a.next_attempt_at, a.org, ${hookLoad} + a.rn as turn
      from ranked a where a.rn <= ${byHook('a.webhook_id', slots.room, slots.perWebhook)}
    ),
    turns as (
      select t.id, t.webhook_id, t.next_attempt_at, t.turn,
        ${orgLoad} + row_number() over (partition by t.org order by t.turn, t.next_attempt_at, t.id) as org_turn
      from allowed t
    )
    ${
      inLane
        ? sql`select l.id from (
            select t.id, t.org_turn, t.turn, t.next_attempt_at, ${inLane} as slow,
              row_number() over (partition by ${inLane} order by ${turnOrder}) as ln
            from turns t
          ) l where l.slow = 0 or l.ln <= ${sql.lit(slots.lane!.free)}
          order by l.org_turn, l.turn, l.next_attempt_at, l.id limit ${sql.lit(limit)}`
        : sql`select t.id from turns t order by ${turnOrder} limit ${sql.lit(limit)}`
    }`;
  // PostgreSQL: the due conditions again at the locking level, where a row another worker has just leased is
  // re-checked (FOR UPDATE cannot sit beside the window functions). SQLite runs one writer at a time: the chosen
  // rows are still due when updated.
  return pg ? sql`select p.id from webhook_deliveries p where p.id in (${fair}) and ${due('p')} for update skip locked` : fair;
}

/**
 * Claims up to `limit` due deliveries (claimDue) and loads what their attempts need (repo.loadForSendMany): on
 * PostgreSQL in one statement, the claim a data-modifying CTE joined to the events and webhooks (one round trip
 * to the server less per batch); on SQLite in two, on the one connection, where a statement costs no round trip.
 */
export async function claimForSend(
  db: Executor,
  workerId: string,
  now: string,
  leaseUntil: string,
  limit: number,
  slots: ClaimSlots,
): Promise<{ claimed: Pick<DeliveryRow, 'id' | 'webhook_id'>[]; contexts: SendContext[] }> {
  if (!isPostgres(db)) {
    const claimed = await claimDue(db, workerId, now, leaseUntil, limit, slots);
    return {
      claimed,
      contexts:
        claimed.length > 0
          ? await loadForSendMany(
              db,
              claimed.map((d) => d.id),
            )
          : [],
    };
  }
  const pick = claimCondition(db, now, limit, slots);
  // The same columns as sendContext in repository.ts, which loads them for the SQLite path.
  const { rows } = await sql<SendContext>`
    with claimed as (
      update webhook_deliveries set lease_until = ${leaseUntil}, leased_by = ${workerId}
      where id in (${pick})
      returning id, attempts, webhook_id, leased_by, event_id
    )
    select d.id, d.attempts, d.webhook_id, d.leased_by, w.organization_id, e.id as event_id, e.payload,
      e.created_at as event_time, w.url, w.is_enabled, w.is_signed, w.signing_key, w.previous_signing_key,
      w.previous_key_expires_at, w.content_type, w.failing_since, w.last_success_at, w.is_verified, w.verify_pending
    from claimed d join events e on e.id = d.event_id left join webhooks w on w.id = d.webhook_id`.execute(db);
  return { claimed: rows.map((r) => ({ id: r.id, webhook_id: r.webhook_id })), contexts: rows };
}

/** Claims up to `limit` due deliveries for this worker until `leaseUntil` (see claimCondition). */
export async function claimDue(
  db: Executor,
  workerId: string,
  now: string,
  leaseUntil: string,
  limit: number,
  slots: ClaimSlots,
): Promise<DeliveryRow[]> {
  return db
    .updateTable('webhook_deliveries')
    .set({ lease_until: leaseUntil, leased_by: workerId })
    .where(sql<boolean>`${sql.ref('id')} in (${claimCondition(db, now, limit, slots)})`)
    .returningAll()
    .execute();
}
