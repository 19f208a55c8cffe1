import { safetyModes } from '../hazards/settings.js';
import { type CountedLine, quantityAfterCount } from '../inventory/counting.js';
import { findPlacement, type Incoming, type PlacementFindings } from '../inventory/placement.js';
import { instancesByIds } from '../inventory/placement-repository.js';
import type { Executor } from '../shared/db/database.js';
import { dec } from '../shared/decimal.js';

// A stocktake's placement findings (docs/safety.md "A stocktake records what is there"): a count records what is
// physically on the shelf, so applying it never blocks, whatever the lab's settings. Before each item's counted
// containers are written, what the count changes (a container found elsewhere, a larger quantity) is checked as a
// move or a larger quantity would be; the findings come back with the apply, `blocked` always false.

export const noFindings = async (ex: Executor, labId: string): Promise<PlacementFindings> => ({
  segregation: [],
  limits: [],
  unknown_amounts: [],
  modes: await safetyModes(ex, labId),
  blocked: false,
});

/** What one item's counted lines would run into where they end up; read before they are written. */
export async function countedFindings(trx: Executor, labId: string, lines: readonly CountedLine[], into: PlacementFindings): Promise<void> {
  const rows = await instancesByIds(
    trx,
    lines.map((l) => l.instanceId),
  );
  const byLocation = new Map<string, Incoming[]>();
  for (const line of lines) {
    const r = rows.find((x) => x.instance_id === line.instanceId);
    if (!r) continue;
    const quantity =
      line.countedQuantity === undefined ? r.quantity : quantityAfterCount(r.quantity, line.countedQuantity, line.recordedQuantity);
    const target = line.locationId ?? r.location_id;
    const moves = line.locationId !== undefined && line.locationId !== r.location_id;
    if (target === null || (!moves && !dec(quantity).greaterThan(r.quantity))) continue;
    const incoming = { instanceId: r.instance_id, itemId: r.item_id, typeId: r.type_id, itemName: r.name, unitSize: r.unit_size, quantity };
    byLocation.set(target, [...(byLocation.get(target) ?? []), incoming]);
  }
  for (const [locationId, incoming] of byLocation) {
    const found = await findPlacement(trx, labId, { locationId }, incoming);
    into.segregation.push(...found.segregation);
    into.limits.push(...found.limits);
    for (const u of found.unknown_amounts)
      if (!into.unknown_amounts.some((x) => x.item_id === u.item_id && x.item_name === u.item_name)) into.unknown_amounts.push(u);
  }
}
