import { countableByIds } from '../inventory/counting-repository.js';
import { assertLabNotMigrating } from '../labs/migrating.js';
import { findVisibleLab, lockLab } from '../labs/repository.js';
import type { Lab } from '../labs/schemas.js';
import { findLocation } from '../locations/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import { nowIso } from '../shared/time.js';
import { linesOf, liveLines, subtreeAt, viewOf } from './lines.js';
import * as repo from './repository.js';
import type { CountBody, StartBody, Stocktake, StocktakeLine, StocktakeWithLines } from './schemas.js';

// Count sessions (docs/stocktake.md): started on a location, counted by any number of people at once, left and
// resumed while open, then applied (apply.ts) or cancelled. Another organization's or an unseen lab's session,
// location or container is 404 "not found".

/** The session and its lab, when the actor sees the lab; 404 otherwise. */
export async function visibleSession(ex: Executor, actor: Actor, id: string, opts: { lock?: 'update' | 'share' } = {}) {
  const session = await repo.findSession(ex, id, opts);
  const lab = session && (await findVisibleLab(ex, actor, session.lab_id));
  if (!session || !lab) throw notFound('stocktake');
  return { session, lab };
}

export const notOpen = (session: repo.SessionRow) =>
  new AppError(
    'conflict',
    `This count is ${session.status === 'applied' ? 'already applied' : 'cancelled'}; start a new one to count again`,
    {
      extra: { status: session.status },
    },
  );

const countsItems = () =>
  new AppError('conflict', 'This count covers the items of a lab that does not use instances: count each item (…/items/{itemId})');

/**
 * POST /stocktakes: starts counting a location and everything below it, or (lab_id) every item of a lab that does
 * not use instances. An open count of the same location (of the same lab) is resumed rather than doubled (created:
 * false), so two people starting at once count one session.
 */
export async function startStocktake(
  deps: ServiceDeps,
  actor: Actor,
  input: StartBody,
): Promise<{ view: StocktakeWithLines; created: boolean }> {
  if ((input.location_id === undefined) === (input.lab_id === undefined))
    throw fieldError(
      'location_id',
      'give exactly one of location_id (a location of a lab that uses instances) and lab_id (a lab that does not)',
    );
  return deps.db.transaction().execute(async (trx) => {
    let lab: Lab | undefined;
    let locationId: string | null = null;
    if (input.location_id !== undefined) {
      const location = await findLocation(trx, input.location_id);
      lab = location && (await findVisibleLab(trx, actor, location.lab_id));
      if (!location || !lab) throw notFound('location');
      locationId = location.id;
    } else {
      lab = await findVisibleLab(trx, actor, input.lab_id!);
      if (!lab) throw notFound('lab');
      if (lab.uses_instances)
        throw new AppError('conflict', 'This lab uses instances: count a location of it (location_id), and everything below it');
    }
    // One start at a time per lab, so two people starting the same count at once get the same session.
    await lockLab(trx, lab.id);
    await assertLabNotMigrating(trx, lab.id);
    const open = await repo.findOpenSessionAt(trx, lab.id, locationId);
    if (open) return { view: await viewOf(trx, deps.config.appUrl, open, lab, await linesOf(trx, open)), created: false };
    const row: repo.SessionRow = {
      id: newId(),
      lab_id: lab.id,
      location_id: locationId,
      status: 'open',
      started_by: actor.userId,
      started_at: nowIso(),
      finished_by: null,
      finished_at: null,
      missing_to_zero: 0,
      result: null,
    };
    await repo.insertSession(trx, row);
    return { view: await viewOf(trx, deps.config.appUrl, row, lab, await linesOf(trx, row)), created: true };
  });
}

export async function getStocktake(deps: ServiceDeps, actor: Actor, id: string): Promise<StocktakeWithLines> {
  const { session, lab } = await visibleSession(deps.db, actor, id);
  return viewOf(deps.db, deps.config.appUrl, session, lab, await linesOf(deps.db, session));
}

/** GET /stocktakes: newest first, each with its summary. */
export async function listStocktakes(
  deps: ServiceDeps,
  actor: Actor,
  filter: repo.SessionFilter,
  page: Page,
): Promise<{ total: number; stocktakes: Stocktake[] }> {
  if (filter.labId && !(await findVisibleLab(deps.db, actor, filter.labId))) throw notFound('lab');
  const { rows, total } = await repo.listSessions(deps.db, actor, filter, page);
  const labs = new Map<string, Lab>();
  const stocktakes: Stocktake[] = [];
  for (const row of rows) {
    if (!labs.has(row.lab_id)) labs.set(row.lab_id, (await findVisibleLab(deps.db, actor, row.lab_id))!);
    const { lines: _lines, ...view } = await viewOf(deps.db, deps.config.appUrl, row, labs.get(row.lab_id)!, await linesOf(deps.db, row));
    stocktakes.push(view);
  }
  return { total, stocktakes };
}

/**
 * PUT /stocktakes/{id}/counts/{instanceId}: records that a container is there (with what is in it, and where it was
 * found). One row per container, upserted: two people counting at once never lose each other's counts, and the same
 * container counted again keeps the later count.
 */
export async function countInstance(
  deps: ServiceDeps,
  actor: Actor,
  id: string,
  instanceId: string,
  input: CountBody,
): Promise<StocktakeLine> {
  return deps.db.transaction().execute(async (trx) => {
    const { session } = await visibleSession(trx, actor, id, { lock: 'share' });
    if (session.status !== 'open') throw notOpen(session);
    if (session.location_id === null) throw countsItems();
    const [instance] = await countableByIds(trx, session.lab_id, [instanceId]);
    if (!instance) throw notFound('inventory item instance');
    const tree = await subtreeAt(trx, session.location_id);
    let found: string | null = null;
    if (input.location_id) {
      if (!tree.has(input.location_id)) throw fieldError('location_id', 'must be the counted location or a location below it');
      if (input.location_id !== instance.location_id) found = input.location_id;
    } else if (!tree.has(instance.location_id)) {
      found = session.location_id;
    }
    await repo.upsertCount(trx, {
      session_id: session.id,
      instance_id: instance.instance_id,
      item_id: instance.item_id,
      quantity: input.quantity ?? null,
      recorded_quantity: instance.quantity,
      recorded_location_id: instance.location_id,
      found_location_id: found,
      counted_by: actor.userId,
      counted_at: nowIso(),
    });
    const { lines } = await liveLines(trx, session);
    return lines.find((l) => l.instance_id === instance.instance_id)!;
  });
}

/** DELETE /stocktakes/{id}/counts/{instanceId}: takes a count back (a tick undone). */
export async function uncountInstance(deps: ServiceDeps, actor: Actor, id: string, instanceId: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const { session } = await visibleSession(trx, actor, id, { lock: 'share' });
    if (session.status !== 'open') throw notOpen(session);
    if (session.location_id === null) throw countsItems();
    if (!(await repo.deleteCount(trx, session.id, instanceId))) throw notFound('count');
  });
}

/** POST /stocktakes/{id}/cancel: nothing is applied; the counts stay readable. */
export async function cancelStocktake(deps: ServiceDeps, actor: Actor, id: string): Promise<StocktakeWithLines> {
  return deps.db.transaction().execute(async (trx) => {
    const { session, lab } = await visibleSession(trx, actor, id, { lock: 'update' });
    if (session.status !== 'open') throw notOpen(session);
    const lines = await linesOf(trx, session);
    const now = nowIso();
    await repo.finishSession(trx, session.id, {
      status: 'cancelled',
      finished_by: actor.userId,
      finished_at: now,
      result: JSON.stringify(lines),
    });
    const after = (await repo.findSession(trx, session.id))!;
    return viewOf(trx, deps.config.appUrl, after, lab, lines);
  });
}
