import { userSummaries } from '../accounts/repository.js';
import { type CountableInstance, countableAt, countableByIds } from '../inventory/counting-repository.js';
import type { Lab } from '../labs/schemas.js';
import { type LocationPath, locationPaths, subtreeOf } from '../locations/repository.js';
import type { Executor } from '../shared/db/database.js';
import { dec } from '../shared/decimal.js';
import { itemLines } from './item-lines.js';
import type { CountRow, SessionRow } from './repository.js';
import * as repo from './repository.js';
import type { Stocktake, StocktakeLine, StocktakeWithLines } from './schemas.js';

// A session's lines: every active container stored in the subtree (expected) and every container counted in the
// session, each in one state (docs/stocktake.md). While the session is open they are worked out from the inventory
// as it is now and the counts; an applied session keeps the lines it was applied with (stocktake_sessions.result).

export interface Subtree {
  ids: string[];
  has(id: string | null): boolean;
}

export async function subtreeAt(ex: Executor, locationId: string): Promise<Subtree> {
  const ids = (await subtreeOf(ex, locationId)).map((s) => s.id);
  const set = new Set(ids);
  return { ids, has: (id) => id !== null && set.has(id) };
}

export function stateOf(c: CountRow | undefined): StocktakeLine['state'] {
  if (!c) return 'missing';
  if (c.found_location_id !== null && c.found_location_id !== c.recorded_location_id) return 'unexpected';
  if (c.quantity !== null && !dec(c.quantity).equals(dec(c.recorded_quantity))) return 'different';
  return 'matching';
}

/**
 * The lines as they are now, with the counts keyed by what was counted: the container's id, or in a count that covers
 * a lab (location_id null), the item's (item-lines.ts).
 */
export async function liveLines(ex: Executor, session: SessionRow): Promise<{ lines: StocktakeLine[]; counts: Map<string, CountRow> }> {
  if (session.location_id === null) return itemLines(ex, session, stateOf);
  const tree = await subtreeAt(ex, session.location_id);
  const counts = new Map((await repo.countsOf(ex, session.id)).map((c) => [c.instance_id, c]));
  const expected = await countableAt(ex, session.lab_id, tree.ids);
  const expectedIds = new Set(expected.map((e) => e.instance_id));
  const others = await countableByIds(
    ex,
    session.lab_id,
    [...counts.keys()].filter((id) => !expectedIds.has(id)),
  );
  const all: CountableInstance[] = [...expected, ...others];
  const countList = all.map((i) => counts.get(i.instance_id)).filter((c): c is CountRow => c !== undefined);
  const [paths, users] = await Promise.all([
    locationPaths(ex, [...all.map((i) => i.location_id), ...countList.flatMap((c) => [c.recorded_location_id, c.found_location_id])]),
    userSummaries(
      ex,
      countList.map((c) => c.counted_by),
    ),
  ]);
  const path = (id: string | null): LocationPath | null => (id ? (paths.get(id) ?? null) : null);
  const lines = all.map((i): StocktakeLine => {
    const c = counts.get(i.instance_id);
    return {
      instance_id: i.instance_id,
      item_id: i.item_id,
      item_name: i.item_name,
      vendor: i.vendor,
      catalog_number: i.catalog_number,
      unit_size: i.unit_size,
      lot_number: i.lot_number,
      expiration_date: i.expiration_date,
      state: stateOf(c),
      expected: expectedIds.has(i.instance_id),
      recorded_quantity: c ? c.recorded_quantity : i.quantity,
      recorded_location: path(c ? c.recorded_location_id : i.location_id),
      counted: c !== undefined,
      counted_quantity: c?.quantity ?? null,
      found_location: path(c?.found_location_id ?? null),
      found_location_id: c?.found_location_id ?? null,
      counted_by: c ? (users.get(c.counted_by) ?? null) : null,
      counted_at: c?.counted_at ?? null,
    };
  });
  return { lines, counts };
}

export async function linesOf(ex: Executor, session: SessionRow): Promise<StocktakeLine[]> {
  if (session.result !== null) return JSON.parse(session.result) as StocktakeLine[];
  return (await liveLines(ex, session)).lines;
}

export function summaryOf(lines: StocktakeLine[]): Stocktake['summary'] {
  const n = (s: StocktakeLine['state']) => lines.filter((l) => l.state === s).length;
  return {
    expected: lines.filter((l) => l.expected).length,
    counted: lines.filter((l) => l.counted).length,
    missing: n('missing'),
    unexpected: n('unexpected'),
    different: n('different'),
    matching: n('matching'),
  };
}

export const stocktakeAppUrl = (appUrl: string, id: string) => `${appUrl}/app/stocktakes/${id}`;

export async function viewOf(
  ex: Executor,
  appUrl: string,
  session: SessionRow,
  lab: Lab,
  lines: StocktakeLine[],
): Promise<StocktakeWithLines> {
  const [paths, users] = await Promise.all([
    locationPaths(ex, session.location_id ? [session.location_id] : []),
    userSummaries(
      ex,
      [session.started_by, session.finished_by].filter((u): u is string => u !== null),
    ),
  ]);
  return {
    id: session.id,
    lab: { id: lab.id, name: lab.name },
    covers: session.location_id === null ? 'lab' : 'location',
    location_id: session.location_id,
    location: session.location_id ? (paths.get(session.location_id) ?? null) : null,
    status: session.status,
    started_by: users.get(session.started_by) ?? null,
    started_at: session.started_at,
    finished_by: session.finished_by ? (users.get(session.finished_by) ?? null) : null,
    finished_at: session.finished_at,
    missing_set_to_zero: session.missing_to_zero === 1,
    summary: summaryOf(lines),
    app_url: stocktakeAppUrl(appUrl, session.id),
    lines,
  };
}
