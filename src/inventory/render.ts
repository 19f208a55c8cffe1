import { userSummaries } from '../accounts/repository.js';
import { labsByIds } from '../labs/repository.js';
import { locationPaths } from '../locations/repository.js';
import type { Executor } from '../shared/db/database.js';
import { typeRefsByIds } from '../types/repository.js';
import { activeInstancesOf, type ItemRow } from './repository.js';
import { itemQuantity } from './rules.js';
import type { InventoryItem } from './schemas.js';

export const itemAppUrl = (appUrl: string, id: string): string => `${appUrl}/app/inventory/items/${id}`;

/**
 * Turns item rows into public items. Everything nested is fetched in batches (labs, users, types, instances,
 * location paths), so a page costs the same few queries whatever its size.
 */
export async function renderItems(ex: Executor, appUrl: string, rows: ItemRow[]): Promise<InventoryItem[]> {
  if (rows.length === 0) return [];
  const [labs, users, types, instances] = await Promise.all([
    labsByIds(
      ex,
      rows.map((r) => r.lab_id),
    ),
    userSummaries(
      ex,
      rows.flatMap((r) => [r.added_by, r.updated_by]),
    ),
    typeRefsByIds(
      ex,
      rows.map((r) => r.type_id),
    ),
    activeInstancesOf(
      ex,
      rows.map((r) => r.id),
    ),
  ]);
  const paths = await locationPaths(
    ex,
    instances.map((i) => i.location_id),
  );
  const byItem = new Map<string, typeof instances>();
  for (const inst of instances) {
    const list = byItem.get(inst.item_id) ?? [];
    list.push(inst);
    byItem.set(inst.item_id, list);
  }

  return rows.map((r) => {
    const lab = labs.get(r.lab_id)!;
    // Legacy labs have no instances, except items a lab migration in progress already converted (src/lab-migration/service.ts):
    // those render as migrated, nested lab included, exactly as their inventory-item.updated event showed them. A
    // converted item left without an instance renders as legacy until the lab flips (its event shows the end state).
    const migrated = lab.uses_instances || byItem.has(r.id);
    const active = migrated ? (byItem.get(r.id) ?? []) : [];
    return {
      id: r.id,
      name: r.name,
      vendor: r.vendor,
      catalog_number: r.catalog_number,
      price: r.price,
      unit_size: r.unit_size,
      quantity: itemQuantity(
        migrated,
        r.quantity,
        active.map((i) => i.quantity),
      ),
      url: r.url,
      technical_details: r.technical_details,
      expiration_date: migrated ? null : r.expiration_date,
      auto_reminder: r.auto_reminder,
      lot_number: migrated ? null : r.lot_number,
      cas_number: r.cas_number,
      vendor_product_id: r.vendor_product_id,
      lab: migrated === lab.uses_instances ? lab : { ...lab, uses_instances: true },
      type: r.type_id ? (types.get(r.type_id) ?? null) : null,
      location: !migrated && r.location_name ? { name: r.location_name } : null,
      sublocation: !migrated && r.sublocation_name ? { name: r.sublocation_name } : null,
      added_by: users.get(r.added_by)!,
      updated_by: users.get(r.updated_by)!,
      serial_number: r.serial_number,
      instances: active.map((i) => ({
        id: i.id,
        quantity: i.quantity,
        lot_number: i.lot_number,
        expiration_date: i.expiration_date,
        location: i.location_id ? (paths.get(i.location_id) ?? null) : null,
      })),
      app_url: itemAppUrl(appUrl, r.id),
    };
  });
}

export async function renderItem(ex: Executor, appUrl: string, row: ItemRow): Promise<InventoryItem> {
  return (await renderItems(ex, appUrl, [row]))[0]!;
}
