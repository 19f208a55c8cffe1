import { findLabRow } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import { addDecimals, dec } from '../shared/decimal.js';
import type { ServiceDeps } from '../shared/deps.js';
import { nowIso } from '../shared/time.js';
import { finishItemChange, type ItemWithEtag, lockVisibleItem } from './changes.js';
import { type HistoryEntry, recordHistory } from './history-rows.js';
import { checkInstanceLocation } from './instances.js';
import * as repo from './repository.js';

// A stocktake's result written into one item inside the stocktake's transaction (src/stocktake/apply.ts): the same
// rules as any change to an instance (instances.ts, quantities.ts): the item locked, the instance read under the
// lock, one history line per changed field, the item's version bumped once and one inventory-item.updated. Each
// history line names the session (migration 0033), so the item's history says it came from the count.

export interface CountedLine {
  instanceId: string;
  /** What was counted; with `recordedQuantity`, the difference is added to the quantity as it is now. */
  countedQuantity?: string;
  /** The quantity recorded when it was counted (default: as it is now, so the count is set as it stands). */
  recordedQuantity?: string;
  /** Where it was found, when that is not where it is recorded: the instance moves there. */
  locationId?: string;
}

export interface CountApplied {
  /** The item after the change; undefined when nothing of it changed. */
  item?: ItemWithEtag;
  /** Instances no longer active (archived since they were counted): left alone. */
  gone: string[];
}

/**
 * The counted quantity: the quantity now, plus what the count found beyond (or short of) what was recorded when it
 * was counted, so a use recorded between the count and the apply is kept. Never below zero.
 */
export function quantityAfterCount(current: string, counted: string, recorded: string = current): string {
  const next = addDecimals(current, dec(counted).minus(dec(recorded)).toFixed());
  return dec(next).isNegative() ? '0' : next;
}

export async function applyCountIn(
  trx: Executor,
  deps: ServiceDeps,
  actor: Actor,
  itemId: string,
  lines: CountedLine[],
  source: { sessionId: string; note: string },
): Promise<CountApplied> {
  const row = await lockVisibleItem(trx, actor, itemId);
  const now = nowIso();
  const gone: string[] = [];
  const changes: HistoryEntry[] = [];
  for (const line of lines) {
    const instance = await repo.findActiveInstanceLocked(trx, row.id, line.instanceId);
    if (!instance) {
      gone.push(line.instanceId);
      continue;
    }
    const set: Partial<repo.InstanceRow> = {};
    if (line.countedQuantity !== undefined) {
      const next = quantityAfterCount(instance.quantity, line.countedQuantity, line.recordedQuantity);
      if (!dec(next).equals(dec(instance.quantity))) set.quantity = next;
    }
    if (line.locationId !== undefined && line.locationId !== instance.location_id) {
      await checkInstanceLocation(trx, row.lab_id, line.locationId);
      set.location_id = line.locationId;
    }
    const entry = (field: 'quantity' | 'location_id'): HistoryEntry => ({
      field: `instance.${field}`,
      old: instance[field],
      new: set[field] ?? null,
      note: source.note,
      instanceId: instance.id,
      stocktakeSessionId: source.sessionId,
    });
    if (set.quantity !== undefined) changes.push(entry('quantity'));
    if (set.location_id !== undefined) changes.push(entry('location_id'));
    if (Object.keys(set).length > 0) await repo.updateInstance(trx, instance.id, set, now);
  }
  if (changes.length === 0) return { gone };
  await recordHistory(trx, { itemId: row.id, userId: actor.userId, now }, changes);
  await repo.touchItem(trx, row.id, { userId: actor.userId, now });
  return { item: await finishItemChange(trx, deps, row.id), gone };
}

/**
 * A count of a lab that does not use instances, written into one item (src/stocktake/apply.ts): the item's own
 * quantity, by the same rule (the difference counted is added to the quantity as it is now, never below zero), one
 * history line `quantity` naming the session, one new version and one inventory-item.updated. An item whose lab has
 * been migrated to instances since it was counted is left alone (its quantity is now its containers').
 */
export async function applyItemCountIn(
  trx: Executor,
  deps: ServiceDeps,
  actor: Actor,
  itemId: string,
  line: { countedQuantity: string; recordedQuantity?: string },
  source: { sessionId: string; note: string },
): Promise<CountApplied> {
  const row = await lockVisibleItem(trx, actor, itemId);
  const lab = (await findLabRow(trx, row.lab_id))!;
  if (lab.uses_instances === 1) return { gone: [itemId] };
  const next = quantityAfterCount(row.quantity, line.countedQuantity, line.recordedQuantity);
  if (dec(next).equals(dec(row.quantity))) return { gone: [] };
  const now = nowIso();
  await repo.touchItem(trx, row.id, { userId: actor.userId, now, set: { quantity: next } });
  // Through recordHistory, as every change is: a controlled item's ledger hears of the count too (src/controlled/).
  await recordHistory(trx, { itemId: row.id, userId: actor.userId, now }, [
    { field: 'quantity', old: row.quantity, new: next, note: source.note, stocktakeSessionId: source.sessionId },
  ]);
  return { item: await finishItemChange(trx, deps, row.id), gone: [] };
}
