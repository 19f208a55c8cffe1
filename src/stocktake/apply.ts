import { applyCountIn, applyItemCountIn, type CountedLine } from '../inventory/counting.js';
import type { PlacementFindings } from '../inventory/placement.js';
import { locationPaths } from '../locations/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { nowIso } from '../shared/time.js';
import { liveLines, viewOf } from './lines.js';
import { countedFindings, noFindings } from './placement.js';
import type { CountRow } from './repository.js';
import * as repo from './repository.js';
import type { ApplyBody, StocktakeLine, StocktakeWithLines } from './schemas.js';
import { notOpen, visibleSession } from './service.js';

// POST /stocktakes/{id}/apply (docs/stocktake.md, docs/product.md §14): the whole result in ONE transaction, through
// the inventory's own change rules (src/inventory/counting.ts): per item, its instances' quantities and places, a
// history line per change that names the session, one new version and one inventory-item.updated. The session is
// locked and must be open, so a second apply (a double-click without an Idempotency-Key, a second person) is 409
// and changes nothing; with the same Idempotency-Key it answers the first apply's response.

export async function applyStocktake(deps: ServiceDeps, actor: Actor, id: string, input: ApplyBody): Promise<StocktakeWithLines> {
  const zeroMissing = input.missing === 'set_to_zero';
  return deps.db.transaction().execute(async (trx) => {
    const { session, lab } = await visibleSession(trx, actor, id, { lock: 'update' });
    if (session.status !== 'open') throw notOpen(session);
    const { lines, counts } = await liveLines(trx, session);
    const findings = await noFindings(trx, lab.id);
    if (session.location_id === null) {
      // A count of a lab that does not use instances: its lines are the items themselves.
      const note = `Stocktake of ${lab.name}`;
      for (const line of [...lines].sort((a, b) => (a.item_id < b.item_id ? -1 : 1))) {
        const c = counts.get(line.item_id);
        const counted = c ? (c.quantity ?? undefined) : zeroMissing ? '0' : undefined;
        if (counted === undefined) continue;
        await applyItemCountIn(
          trx,
          deps,
          actor,
          line.item_id,
          { countedQuantity: counted, recordedQuantity: c?.recorded_quantity },
          { sessionId: session.id, note },
        );
      }
    } else {
      await applyLocationCount(
        trx,
        deps,
        actor,
        { sessionId: session.id, labId: lab.id, findings },
        session.location_id,
        lines,
        counts,
        zeroMissing,
      );
    }
    await repo.finishSession(trx, session.id, {
      status: 'applied',
      finished_by: actor.userId,
      finished_at: nowIso(),
      missing_to_zero: zeroMissing ? 1 : 0,
      result: JSON.stringify(lines),
    });
    const after = (await repo.findSession(trx, session.id))!;
    // What the count changed, checked where it put things (never blocking: a count records what is there).
    return { ...(await viewOf(trx, deps.config.appUrl, after, lab, lines)), placement_findings: findings };
  });
}

/** A location's count: per item, its containers' counted quantities and the places they were found. */
async function applyLocationCount(
  trx: Executor,
  deps: ServiceDeps,
  actor: Actor,
  run: { sessionId: string; labId: string; findings: PlacementFindings },
  locationId: string,
  lines: StocktakeLine[],
  counts: Map<string, CountRow>,
  zeroMissing: boolean,
): Promise<void> {
  const where = (await locationPaths(trx, [locationId])).get(locationId);
  const note = `Stocktake of ${where ? where.pathNames.join(' / ') : 'a deleted location'}`;
  const byItem = new Map<string, CountedLine[]>();
  for (const line of lines) {
    const c = counts.get(line.instance_id!);
    let counted: CountedLine | undefined;
    if (c) {
      counted = {
        instanceId: c.instance_id,
        countedQuantity: c.quantity ?? undefined,
        recordedQuantity: c.recorded_quantity,
        locationId: c.found_location_id ?? undefined,
      };
    } else if (zeroMissing) {
      counted = { instanceId: line.instance_id!, countedQuantity: '0' };
    }
    if (counted) byItem.set(line.item_id, [...(byItem.get(line.item_id) ?? []), counted]);
  }
  // Items in one order, so two applies touching the same items lock them in the same order (no deadlock).
  for (const itemId of [...byItem.keys()].sort()) {
    await countedFindings(trx, run.labId, byItem.get(itemId)!, run.findings);
    await applyCountIn(trx, deps, actor, itemId, byItem.get(itemId)!, { sessionId: run.sessionId, note });
  }
}
