import { type CompiledQuery, sql } from 'kysely';
import { subscribersJson } from '../delivery/webhook-repository.js';
import { labHasControlAreas } from '../hazards/control-area-repository.js';
import { visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import { precompiled } from '../shared/db/precompiled.js';
import type { ItemChangesTable } from '../shared/db/schema.js';

// The statements of PUT /inventory-items/{itemId}/instances/{itemInstanceId} (./quantity-fast.ts), compiled once
// per shape (src/shared/db/precompiled.ts; docs/decisions/0030-precompiled-writes.md).

// Shapes: the caller's role, whether only verified webhooks take events, and PostgreSQL's row locks.
const instanceChange = precompiled((ex, shape, itemId: string, instanceId: string, organizationId: string, userId: string) => {
  const [role, verified, lock] = shape.split(':') as [Actor['role'], string, string];
  const q = ex
    .selectFrom('inventory_items')
    .innerJoin('labs', 'labs.id', 'inventory_items.lab_id')
    .innerJoin('users', (join) => join.on('users.id', '=', userId))
    .leftJoin('inventory_item_instances as instance', (join) =>
      join.on('instance.id', '=', instanceId).onRef('instance.item_id', '=', 'inventory_items.id').on('instance.archived_at', 'is', null),
    )
    .select([
      'inventory_items.id',
      'inventory_items.lab_id',
      'inventory_items.version',
      'inventory_items.rendered',
      'inventory_items.rendered_shape',
      'inventory_items.minimum_quantity',
      'inventory_items.below_minimum',
      'labs.organization_id',
      'labs.uses_instances',
      'labs.migration_started_at',
      'instance.id as instance_id',
      'instance.quantity as instance_quantity',
      'instance.location_id as instance_location_id',
      'inventory_items.type_id',
      'inventory_items.name',
      'inventory_items.unit_size',
      'users.first_name',
      'users.last_name',
      'users.email',
    ])
    .select(subscribersJson(ex, 'labs.organization_id', verified === 'verified').as('subscribers'))
    // Whether it is a controlled substance, so its ledger is written without a statement more for every other item.
    .select((eb) =>
      eb
        .case()
        .when(
          eb.exists(eb.selectFrom('controlled_items').select('item_id').whereRef('controlled_items.item_id', '=', 'inventory_items.id')),
        )
        .then(1)
        .else(0)
        .end()
        .as('controlled'),
    )
    .select(labHasControlAreas('inventory_items.lab_id').as('has_control_areas'))
    .where('inventory_items.id', '=', itemId)
    .where('inventory_items.lab_id', 'in', visibleLabIds(ex, { organizationId, userId, role }));
  return lock === 'lock' ? q.modifyEnd(sql`for update of inventory_items for share of labs`) : q;
});

/**
 * The request's one read: the visible item with its stored document, the active instance, the lab's mode, the
 * caller's name as an item shows it, and the organization's webhooks. PostgreSQL locks the item (and shares the lab
 * row, which a lab's migration writes) until the transaction ends.
 */
export async function findInstanceChange(ex: Executor, actor: Actor, itemId: string, instanceId: string, verifiedOnly: boolean) {
  const shape = `${actor.role === 'admin' ? 'admin' : 'member'}:${verifiedOnly ? 'verified' : 'any'}:${isPostgres(ex) ? 'lock' : 'none'}`;
  return (await instanceChange(ex, shape, itemId, instanceId, actor.organizationId, actor.userId))[0];
}

const touch = precompiled(
  (ex, _shape, id: string, version: number, belowMinimum: number, rendered: string, renderedShape: string, userId: string, now: string) =>
    ex
      .updateTable('inventory_items')
      .set({
        below_minimum: belowMinimum,
        rendered,
        rendered_shape: renderedShape,
        updated_by: userId,
        updated_at: now,
        version: sql<number>`version + 1`,
      })
      .where('id', '=', id)
      .where('version', '=', version),
);

/**
 * The item's new document and below_minimum, who and when, and its version bumped if it is still `version` (the
 * compare-and-set of touchItem in ./repository.ts): no row changed means another writer got there first.
 */
export const touchItemQuery = (
  ex: Executor,
  id: string,
  version: number,
  set: { below_minimum: number; rendered: string; rendered_shape: string },
  userId: string,
  now: string,
): CompiledQuery => touch.bind(ex, 'row', id, version, set.below_minimum, set.rendered, set.rendered_shape, userId, now);

const instanceQuantity = precompiled((ex, _shape, id: string, quantity: string, now: string) =>
  ex.updateTable('inventory_item_instances').set({ quantity, updated_at: now }).where('id', '=', id),
);

/** The instance's quantity; run after holdingsBeforeQuantitySetQuery (src/hazards/holdings-repository.ts), which reads the old one. */
export const instanceQuantityQuery = (ex: Executor, id: string, quantity: string, now: string): CompiledQuery =>
  instanceQuantity.bind(ex, 'row', id, quantity, now);

const CHANGE_COLUMNS = [
  'id',
  'item_id',
  'instance_id',
  'user_id',
  'field',
  'old_value',
  'new_value',
  'note',
  'order_request_id',
  'created_at',
] as const;

const changeInsert = precompiled((ex, _shape, ...v: unknown[]) =>
  ex
    .insertInto('inventory_item_changes')
    .values(
      Object.fromEntries(CHANGE_COLUMNS.map((c, i) => [c, v[i]])) as unknown as ItemChangesTable & { order_request_id: string | null },
    ),
);

/** One line of an item's history (./history-rows.ts historyRow; not of a count, which names its session). */
export const changeInsertQuery = (ex: Executor, row: ItemChangesTable & { order_request_id: string | null }): CompiledQuery =>
  changeInsert.bind(ex, 'row', ...CHANGE_COLUMNS.map((c) => row[c]));
