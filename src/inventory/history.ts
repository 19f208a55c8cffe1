import { userSummaries } from '../accounts/repository.js';
import { findLabRow } from '../labs/repository.js';
import { type LocationPath, locationPaths } from '../locations/repository.js';
import type { Actor } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';
import { notFound } from '../shared/errors.js';
import { instancesByIds } from './history-repository.js';
import * as repo from './repository.js';
import type { Change } from './schemas.js';

// GET /inventory-items/{id}/history: who changed which field of the item or its instances, oldest first, each entry
// with the lot and the place it concerns, so the application can say "Max used 0.2 of lot GR3323 in Freezer −80 °C"
// (docs/web.md, "History in sentences"). These are additions to the application API's entries; the contract's
// payloads are untouched.

const legacyPlace = (row: repo.ItemRow): LocationPath | null => {
  const names = [row.location_name, row.sublocation_name].filter((n): n is string => !!n);
  return names.length === 0 ? null : { name: names[names.length - 1]!, pathNames: names };
};

export async function itemHistory(deps: ServiceDeps, actor: Actor, itemId: string): Promise<Change[]> {
  const row = await repo.findVisibleItem(deps.db, actor, itemId);
  if (!row) throw notFound('inventory item');
  const lab = (await findLabRow(deps.db, row.lab_id))!;
  const changes = await repo.changesOf(deps.db, row.id);
  const instanceIds = [...new Set(changes.map((c) => c.instance_id).filter((id): id is string => id !== null))];
  const [users, instances] = await Promise.all([
    userSummaries(
      deps.db,
      changes.map((c) => c.user_id),
    ),
    instancesByIds(deps.db, instanceIds),
  ]);
  const byId = new Map(instances.map((i) => [i.id, i]));
  const moved = changes.filter((c) => c.field === 'instance.location_id').flatMap((c) => [c.old_value, c.new_value]);
  const paths = await locationPaths(deps.db, [...instances.map((i) => i.location_id), ...moved]);
  const path = (id: string | null | undefined) => (id ? (paths.get(id) ?? null) : null);
  // A legacy lab keeps lot and place on the item itself; a migrated lab's item-level entries concern no one lot.
  const legacy = lab.uses_instances !== 1;
  return changes.map((c) => {
    const instance = c.instance_id ? byId.get(c.instance_id) : undefined;
    const isMove = c.field === 'instance.location_id';
    return {
      id: c.id,
      field: c.field,
      old_value: c.old_value,
      new_value: c.new_value,
      note: c.note,
      instance_id: c.instance_id,
      changed_at: c.created_at,
      changed_by: users.get(c.user_id) ?? null,
      lot_number: instance ? instance.lot_number : legacy ? row.lot_number : null,
      location: instance ? path(instance.location_id) : legacy ? legacyPlace(row) : null,
      old_location: isMove ? path(c.old_value) : null,
      new_location: isMove ? path(c.new_value) : null,
      order_request_id: c.order_request_id ?? null,
      stocktake_id: c.stocktake_session_id ?? null,
    };
  });
}
