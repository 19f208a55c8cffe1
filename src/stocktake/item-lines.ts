import { userSummaries } from '../accounts/repository.js';
import { type CountableItem, countableItemsOf } from '../inventory/counting-repository.js';
import type { Executor } from '../shared/db/database.js';
import type { CountRow, SessionRow } from './repository.js';
import * as repo from './repository.js';
import type { StocktakeLine } from './schemas.js';

// The lines of a count that covers a lab that does not use instances (docs/stocktake.md, "Labs without instances"):
// one per item of the lab, the item being its own single container (docs/labels.md). Every item of the lab is
// expected, so a line is missing, different or as recorded, never unexpected; its place is the item's location and
// sublocation, read as a two-level path (the contract's rule 7 for legacy locations).

/** The item's location and sublocation as a path ("Cabinet 1 / Shelf A"), or null when it records none. */
export function placeOfItem(i: Pick<CountableItem, 'location_name' | 'sublocation_name'>): StocktakeLine['recorded_location'] {
  const pathNames = [i.location_name, i.sublocation_name].filter((n): n is string => !!n);
  return pathNames.length > 0 ? { name: pathNames[pathNames.length - 1]!, pathNames } : null;
}

/** What a count's row says of an item (its state as for a container: stateOf in lines.ts). */
function lineOf(i: CountableItem, c: CountRow | undefined, state: StocktakeLine['state'], who: StocktakeLine['counted_by']): StocktakeLine {
  return {
    instance_id: null,
    item_id: i.item_id,
    item_name: i.item_name,
    vendor: i.vendor,
    catalog_number: i.catalog_number,
    unit_size: i.unit_size,
    lot_number: i.lot_number,
    expiration_date: i.expiration_date,
    state,
    expected: true,
    recorded_quantity: c ? c.recorded_quantity : i.quantity,
    recorded_location: placeOfItem(i),
    counted: c !== undefined,
    counted_quantity: c?.quantity ?? null,
    found_location: null,
    found_location_id: null,
    counted_by: who,
    counted_at: c?.counted_at ?? null,
  };
}

/** The live lines of a lab's count: its items as they are now, with their counts (keyed by item id). */
export async function itemLines(
  ex: Executor,
  session: SessionRow,
  stateOf: (c: CountRow | undefined) => StocktakeLine['state'],
): Promise<{ lines: StocktakeLine[]; counts: Map<string, CountRow> }> {
  const counts = new Map((await repo.countsOf(ex, session.id)).map((c) => [c.item_id, c]));
  const items = await countableItemsOf(ex, session.lab_id);
  const users = await userSummaries(
    ex,
    [...counts.values()].map((c) => c.counted_by),
  );
  const lines = items.map((i) => {
    const c = counts.get(i.item_id);
    return lineOf(i, c, stateOf(c), c ? (users.get(c.counted_by) ?? null) : null);
  });
  return { lines, counts };
}
