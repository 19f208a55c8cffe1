import { areasAmong, areasOf } from '../hazards/control-area.js';
import { lockControlAreas } from '../hazards/control-area-repository.js';
import { type LocationPath, pathsUpWithAreas, type StampedSubtree, stampedAreaSubtrees } from '../locations/repository.js';
import type { Executor } from '../shared/db/database.js';
import { readAhead } from '../shared/read-ahead.js';
import { type AreaHoldings, areaHoldings } from './area-holdings.js';
import { type Profiles, profilesAhead } from './placement-segregation.js';

// The control areas a placement falls in, with what each holds (docs/safety.md): read by every placement check
// (src/inventory/placement.ts), in the writer's transaction with the areas' rows locked, or ahead of the preflight.

type Target = { locationId: string | null; areaIds?: readonly string[] };

/**
 * The target and the locations above it (the areas it may fall in, with their names for the findings), the areas'
 * rows locked when asked, then each area's holdings summed per unit size and statements (./area-holdings.ts).
 */
export async function readAreasOf(ex: Executor, target: Target, lock: boolean) {
  let above: Map<string, LocationPath> | undefined;
  let areas: ReturnType<typeof areasOf>;
  let subtrees: Map<string, StampedSubtree> | undefined;
  if (target.areaIds) areas = await areasAmong(ex, target.areaIds);
  else if (target.locationId) {
    // The path up and the areas marked on it in one statement; unlocked, the areas' subtrees beside it (a writer
    // reads them after the lock, or a placement that raced it could be missed).
    const [up, trees] = await Promise.all([
      pathsUpWithAreas(ex, target.locationId),
      lock ? undefined : stampedAreaSubtrees(ex, target.locationId, 'above'),
    ]);
    above = up.paths;
    areas = areasOf(up.areas);
    subtrees = trees;
  } else [above, areas] = [new Map(), []];
  if (lock)
    await lockControlAreas(
      ex,
      areas.map((a) => a.locationId),
    );
  const stored = new Map<string, AreaHoldings>();
  for (const a of areas) stored.set(a.locationId, await areaHoldings(ex, a.locationId, a.limits, false, subtrees?.get(a.locationId)));
  return { above, areas, stored };
}

/** What the preflight reads of the target before it knows the location visible and the incoming containers. */
export interface Ahead {
  areas: ReturnType<typeof readAreasOf>;
  profiles: Profiles;
}

/**
 * The reads of a preflight at `locationId` that need neither its lab nor the incoming containers, started at once
 * (src/inventory/placement-service.ts checkPlacement): nothing is answered from them before the location is known
 * visible, and a failure nobody awaits (the location was not found) is not left unhandled.
 */
export function readTargetAhead(ex: Executor, locationId: string): Ahead {
  return { areas: readAhead(readAreasOf(ex, { locationId }, false)), profiles: profilesAhead(ex, locationId) };
}
