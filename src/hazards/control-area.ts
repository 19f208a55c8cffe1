import { effectiveLabRole, requireLabManager } from '../labs/approval-settings.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import { dec } from '../shared/decimal.js';
import { type FieldError, validation } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import { type AreaRow, controlAreasAmong, deleteControlArea, findControlArea, saveControlArea } from './control-area-repository.js';
import { effectiveLimits, hasDefault, isCategory, type Limit, type LimitView } from './control-area-rules.js';
import type { ControlArea, UpdateControlAreaBody } from './control-area-schemas.js';

// Marking a location a control area and setting its limits (docs/safety.md). The routes live in src/locations/,
// which finds the location visible first; these take the location as found.

export interface LocationRef {
  id: string;
  lab_id: string;
}

const parseLimits = (row: AreaRow): Limit[] => JSON.parse(row.limits) as Limit[];

/** The limits in force in a control area's row. */
// Working out an area's limits walks the fire code's table in decimals (~0.7 ms): every meter and placement check
// needs them, and an area's row changes rarely, so they are worked out once per distinct row (read-only results).
const limitsMemo = new Map<string, LimitView[]>();
export const limitsOfArea = (row: AreaRow): LimitView[] => {
  const key = JSON.stringify([row.sprinklered, row.cabinets, row.limits]);
  let limits = limitsMemo.get(key);
  if (!limits) {
    limits = effectiveLimits({ sprinklered: row.sprinklered === 1, cabinets: row.cabinets === 1 }, parseLimits(row));
    if (limitsMemo.size > 1000) limitsMemo.clear();
    limitsMemo.set(key, limits);
  }
  return limits;
};

export async function controlAreaView(ex: Executor, actor: Actor, location: LocationRef): Promise<ControlArea> {
  const row = await findControlArea(ex, location.id);
  const canEdit = (await effectiveLabRole(ex, actor, location.lab_id)) === 'manager';
  if (!row) {
    return {
      location_id: location.id,
      marked: false,
      sprinklered: false,
      cabinets: false,
      limits: effectiveLimits({ sprinklered: false, cabinets: false }, []),
      can_edit: canEdit,
    };
  }
  return {
    location_id: location.id,
    marked: true,
    sprinklered: row.sprinklered === 1,
    cabinets: row.cabinets === 1,
    limits: limitsOfArea(row),
    can_edit: canEdit,
  };
}

function checkLimits(limits: UpdateControlAreaBody['limits']): Limit[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (limits ?? []).forEach((l, i) => {
    const key = `${l.category}/${l.state}`;
    if (!isCategory(l.category))
      errors.push({ field: `limits[${i}].category`, message: `"${l.category}" is not a category Labstock knows` });
    else if (!hasDefault(l.category, l.state))
      errors.push({ field: `limits[${i}].state`, message: `the fire code sets no ${l.state} limit for it` });
    else if (seen.has(key)) errors.push({ field: `limits[${i}]`, message: 'given twice' });
    seen.add(key);
  });
  if (errors.length) throw validation(errors);
  return (limits ?? []).map((l) => ({ category: l.category, state: l.state, limit: dec(l.limit).toFixed() }));
}

/** Marks the location a control area (or changes its options and limits): org admins and the lab's managers. */
export async function setControlArea(
  trx: Executor,
  actor: Actor,
  location: LocationRef,
  input: UpdateControlAreaBody,
): Promise<ControlArea> {
  await requireLabManager(trx, actor, location.lab_id, 'mark control areas and set their limits');
  const limits = checkLimits(input.limits);
  await saveControlArea(trx, {
    location_id: location.id,
    lab_id: location.lab_id,
    sprinklered: input.sprinklered ? 1 : 0,
    cabinets: input.cabinets ? 1 : 0,
    limits: JSON.stringify(limits),
    updated_by: actor.userId,
    updated_at: nowIso(),
  });
  return controlAreaView(trx, actor, location);
}

/** The location is no longer a control area. Nothing to unmark is no error: the request's outcome holds. */
export async function unmarkControlArea(trx: Executor, actor: Actor, location: LocationRef): Promise<void> {
  await requireLabManager(trx, actor, location.lab_id, 'mark control areas and set their limits');
  await deleteControlArea(trx, location.id);
}

/** The location is being deleted: its marking goes with it, in the delete's transaction. */
export async function forgetControlArea(trx: Executor, locationId: string): Promise<void> {
  await deleteControlArea(trx, locationId);
}

/** The control areas among these locations (a placement's target and its ancestors), with their limits. */
export async function areasAmong(ex: Executor, locationIds: readonly string[]) {
  return areasOf(await controlAreasAmong(ex, locationIds));
}

/** The control areas of rows read with something else (src/locations/repository.ts pathsUpWithAreas). */
export const areasOf = (rows: readonly AreaRow[]) => rows.map((row) => ({ locationId: row.location_id, limits: limitsOfArea(row) }));
