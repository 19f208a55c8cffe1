import type { Insertable, Selectable } from 'kysely';
import { visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import type { Database, StocktakeCountsTable, StocktakeStatus } from '../shared/db/schema.js';

// The stocktake's own tables (migration 0033): sessions and their counts. What it counts (instances, items) is read
// and written through src/inventory/counting*.ts.

export type SessionRow = Selectable<Database['stocktake_sessions']>;
export type CountRow = StocktakeCountsTable;

export async function insertSession(ex: Executor, row: Insertable<Database['stocktake_sessions']>): Promise<void> {
  await ex.insertInto('stocktake_sessions').values(row).execute();
}

/**
 * With `lock`, the row stays locked until the transaction ends (PostgreSQL; SQLite transactions hold the write lock):
 * 'update' to apply or cancel it, 'share' to count in it, so an apply waits for the counts being written and a
 * count arriving during an apply waits for it and then finds the session closed (no count is left unapplied).
 */
export function findSession(ex: Executor, id: string, opts: { lock?: 'update' | 'share' } = {}) {
  let q = ex.selectFrom('stocktake_sessions').selectAll().where('id', '=', id);
  if (opts.lock === 'update' && isPostgres(ex)) q = q.forUpdate();
  if (opts.lock === 'share' && isPostgres(ex)) q = q.forShare();
  return q.executeTakeFirst();
}

/** The open count of this location, or with null, the open count that covers the lab (migration 0035). */
export const findOpenSessionAt = (ex: Executor, labId: string, locationId: string | null) =>
  ex
    .selectFrom('stocktake_sessions')
    .selectAll()
    .where('lab_id', '=', labId)
    .where('location_id', locationId === null ? 'is' : '=', locationId)
    .where('status', '=', 'open')
    .orderBy('started_at')
    .executeTakeFirst();

export interface SessionFilter {
  labId?: string;
  locationId?: string;
  status?: StocktakeStatus;
}

/** The sessions of the labs the actor sees. */
function filtered(ex: Executor, actor: Actor, f: SessionFilter) {
  let q = ex.selectFrom('stocktake_sessions').where('lab_id', 'in', visibleLabIds(ex, actor));
  if (f.labId) q = q.where('lab_id', '=', f.labId);
  if (f.locationId) q = q.where('location_id', '=', f.locationId);
  if (f.status) q = q.where('status', '=', f.status);
  return q;
}

/** Newest first. */
export async function listSessions(ex: Executor, actor: Actor, f: SessionFilter, page: { perPage: number; offset: number }) {
  const [rows, total] = await Promise.all([
    filtered(ex, actor, f)
      .selectAll()
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.perPage)
      .offset(page.offset)
      .execute(),
    filtered(ex, actor, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** Marks an open session applied or cancelled; false when it was no longer open. */
export async function finishSession(
  ex: Executor,
  id: string,
  set: { status: 'applied' | 'cancelled'; finished_by: string; finished_at: string; missing_to_zero?: number; result?: string },
): Promise<boolean> {
  const r = await ex.updateTable('stocktake_sessions').set(set).where('id', '=', id).where('status', '=', 'open').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * One count per (session, instance): inserted, or replaced when the instance was counted before. A single
 * statement on both databases, so two counters writing at once never lose each other's rows.
 */
export async function upsertCount(ex: Executor, row: CountRow): Promise<void> {
  await ex
    .insertInto('stocktake_counts')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['session_id', 'instance_id']).doUpdateSet({
        quantity: row.quantity,
        recorded_quantity: row.recorded_quantity,
        recorded_location_id: row.recorded_location_id,
        found_location_id: row.found_location_id,
        counted_by: row.counted_by,
        counted_at: row.counted_at,
      }),
    )
    .execute();
}

export async function deleteCount(ex: Executor, sessionId: string, instanceId: string): Promise<boolean> {
  const r = await ex
    .deleteFrom('stocktake_counts')
    .where('session_id', '=', sessionId)
    .where('instance_id', '=', instanceId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

export const countsOf = (ex: Executor, sessionId: string) =>
  ex.selectFrom('stocktake_counts').selectAll().where('session_id', '=', sessionId).orderBy('counted_at').orderBy('instance_id').execute();
