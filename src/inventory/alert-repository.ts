import type { Executor } from '../shared/db/database.js';
import type { ItemRow } from './repository.js';

// What the reminder and alert scan (src/alerts/scan.ts) reads of inventory: the items that may be in an alert
// condition, by id in batches. The exact rule runs in src/alerts/rules.ts; these queries only narrow it down with
// the columns inventory keeps current in every change (below_minimum, soonest_expiry: src/inventory/changes.ts).

/**
 * Items after `afterId` (id order) that are below their minimum, or have a reminder set and an expiry (their own
 * or an active instance's) on or before `latestHorizon`, the farthest reminder window from today.
 */
export function alertCandidates(ex: Executor, afterId: string, limit: number, reminders: readonly string[], latestHorizon: string) {
  return ex
    .selectFrom('inventory_items')
    .selectAll()
    .where('id', '>', afterId)
    .where((eb) =>
      eb.or([eb('below_minimum', '=', 1), eb.and([eb('auto_reminder', 'in', [...reminders]), eb('soonest_expiry', '<=', latestHorizon)])]),
    )
    .orderBy('id')
    .limit(limit)
    .execute() as Promise<ItemRow[]>;
}

/** The items of these ids that still exist (one query). */
export async function itemRowsByIds(ex: Executor, ids: readonly string[]): Promise<ItemRow[]> {
  if (ids.length === 0) return [];
  return ex
    .selectFrom('inventory_items')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
}
