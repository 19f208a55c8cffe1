import { visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';

// A container's GTIN and serial number (migration 0034, docs/scanning.md "Identifiers"): src/inventory/ owns the
// instance_identifiers table.

export interface IdentifierRow {
  instance_id: string;
  gtin: string | null;
  serial_number: string | null;
  updated_by: string | null;
  updated_at: string;
}

const COLUMNS = ['instance_id', 'gtin', 'serial_number', 'updated_by', 'updated_at'] as const;

/** Sets an instance's identifiers; both null removes its row (nothing left to find it by). */
export async function putIdentifiers(
  ex: Executor,
  row: { instanceId: string; organizationId: string; gtin: string | null; serialNumber: string | null; userId: string | null; now: string },
): Promise<void> {
  if (row.gtin === null && row.serialNumber === null) {
    await ex.deleteFrom('instance_identifiers').where('instance_id', '=', row.instanceId).execute();
    return;
  }
  const values = { gtin: row.gtin, serial_number: row.serialNumber, updated_by: row.userId, updated_at: row.now };
  await ex
    .insertInto('instance_identifiers')
    .values({ instance_id: row.instanceId, organization_id: row.organizationId, ...values })
    .onConflict((oc) => oc.column('instance_id').doUpdateSet(values))
    .execute();
}

export const identifiersOf = (ex: Executor, instanceId: string): Promise<IdentifierRow | undefined> =>
  ex.selectFrom('instance_identifiers').select(COLUMNS).where('instance_id', '=', instanceId).executeTakeFirst();

/** The identifiers of an item's instances (archived ones too: an archived container keeps what it was). */
export const identifiersOfItem = (ex: Executor, itemId: string): Promise<IdentifierRow[]> =>
  ex
    .selectFrom('instance_identifiers')
    .innerJoin('inventory_item_instances', 'inventory_item_instances.id', 'instance_identifiers.instance_id')
    .select(COLUMNS.map((c) => `instance_identifiers.${c}` as const))
    .where('inventory_item_instances.item_id', '=', itemId)
    .orderBy('inventory_item_instances.created_at')
    .orderBy('instance_identifiers.instance_id')
    .execute();

/** An instance of the item, archived or not (undefined: none). */
export const instanceOfItem = (ex: Executor, itemId: string, instanceId: string) =>
  ex
    .selectFrom('inventory_item_instances')
    .select(['id', 'archived_at'])
    .where('id', '=', instanceId)
    .where('item_id', '=', itemId)
    .executeTakeFirst();

export interface FoundContainer {
  instance_id: string;
  item_id: string;
  item_name: string;
  lab_id: string;
  lab_name: string;
  lot_number: string | null;
  expiration_date: string | null;
  quantity: string;
  archived_at: string | null;
  gtin: string | null;
  serial_number: string | null;
}

/**
 * The containers of labs the actor sees whose identifiers match a scan: with a serial, the GTIN and serial (any GTIN
 * when the scan has none); without one, the GTIN and the instance's lot. Active ones first, then the newest; at most
 * `limit`.
 */
export function findContainers(
  ex: Executor,
  actor: Actor,
  by: { gtin: string | null; serialNumber: string | null; lotNumber: string | null },
  limit: number,
): Promise<FoundContainer[]> {
  let q = ex
    .selectFrom('instance_identifiers')
    .innerJoin('inventory_item_instances', 'inventory_item_instances.id', 'instance_identifiers.instance_id')
    .innerJoin('inventory_items', 'inventory_items.id', 'inventory_item_instances.item_id')
    .innerJoin('labs', 'labs.id', 'inventory_items.lab_id')
    .select([
      'instance_identifiers.instance_id',
      'inventory_items.id as item_id',
      'inventory_items.name as item_name',
      'labs.id as lab_id',
      'labs.name as lab_name',
      'inventory_item_instances.lot_number',
      'inventory_item_instances.expiration_date',
      'inventory_item_instances.quantity',
      'inventory_item_instances.archived_at',
      'instance_identifiers.gtin',
      'instance_identifiers.serial_number',
    ])
    .where('instance_identifiers.organization_id', '=', actor.organizationId)
    .where('inventory_items.lab_id', 'in', visibleLabIds(ex, actor));
  if (by.serialNumber !== null) {
    q = q.where('instance_identifiers.serial_number', '=', by.serialNumber);
    if (by.gtin !== null) q = q.where('instance_identifiers.gtin', '=', by.gtin);
  } else {
    q = q.where('instance_identifiers.gtin', '=', by.gtin!).where('inventory_item_instances.lot_number', '=', by.lotNumber!);
  }
  return q
    .orderBy((eb) => eb.case().when('inventory_item_instances.archived_at', 'is', null).then(0).else(1).end())
    .orderBy('inventory_item_instances.created_at', 'desc')
    .orderBy('instance_identifiers.instance_id')
    .limit(limit)
    .execute();
}
