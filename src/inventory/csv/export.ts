import { findLabRow, findVisibleLab } from '../../labs/repository.js';
import { locationPaths, locationsOfLab } from '../../locations/repository.js';
import { type Actor, isSystemActor, type SystemActor } from '../../shared/actor.js';
import type { ServiceDeps } from '../../shared/deps.js';
import { notFound } from '../../shared/errors.js';
import { typesOfLab } from '../../types/repository.js';
import { activeInstancesOf } from '../repository.js';
import { type Cursor, countLabItems, labItemsAfter } from './repository.js';
import { CSV_COLUMNS, csvRecord, joinPath } from './rules.js';

// A lab's inventory as CSV (docs/csv.md): one row per active instance, or one row for an item without any (a legacy
// lab's items, a migrated item with no instance left: its instance columns empty). Read in keyset pages of items,
// each page written as one chunk, so memory stays the same whatever the lab's size; the lab's types and location
// paths are read once. The pages are separate reads, not one snapshot: a change made meanwhile may or may not show.

/** Items per page: two statements a page (the items, their instances). */
export const EXPORT_PAGE = 1000;

export interface InventoryExport {
  labId: string;
  /** The lab's items (a progress total: rows are at least this many, more with several instances per item). */
  items: number;
  /** The CSV text, a chunk per page of items, the header first. */
  chunks: AsyncGenerator<string>;
}

async function* csvChunks(deps: ServiceDeps, labId: string, migrated: boolean, onItems?: (n: number) => void): AsyncGenerator<string> {
  const types = new Map((await typesOfLab(deps.db, labId)).map((t) => [t.id, t.name]));
  const lab = await locationsOfLab(deps.db, labId);
  const paths = await locationPaths(
    deps.db,
    lab.map((l) => l.id),
  );
  yield csvRecord([...CSV_COLUMNS]);
  let cursor: Cursor | null = null;
  let written = 0;
  for (;;) {
    const items = await labItemsAfter(deps.db, labId, cursor, EXPORT_PAGE);
    if (items.length === 0) return;
    const instances = await activeInstancesOf(
      deps.db,
      items.map((i) => i.id),
    );
    const byItem = new Map<string, typeof instances>();
    for (const inst of instances) {
      const list = byItem.get(inst.item_id);
      if (list) list.push(inst);
      else byItem.set(inst.item_id, [inst]);
    }
    let text = '';
    for (const item of items) {
      const common = {
        name: item.name,
        type: item.type_id ? (types.get(item.type_id) ?? null) : null,
        vendor: item.vendor,
        catalog_number: item.catalog_number,
        cas_number: item.cas_number,
        unit_size: item.unit_size,
        price: item.price,
        serial_number: item.serial_number,
        url: item.url,
        vendor_product_id: item.vendor_product_id,
        auto_reminder: item.auto_reminder,
        technical_details: item.technical_details,
      };
      const own = byItem.get(item.id);
      if (own) {
        for (const i of own) {
          const path = i.location_id ? paths.get(i.location_id)?.pathNames : undefined;
          const row = { ...common, item_id: item.id, instance_id: i.id, quantity: i.quantity, lot_number: i.lot_number };
          text += csvRecord(
            CSV_COLUMNS.map((c) =>
              c === 'expiration_date'
                ? i.expiration_date
                : c === 'location'
                  ? joinPath(path ?? [])
                  : (row as Record<string, string | null>)[c],
            ),
          );
        }
      } else {
        // A legacy item (its quantity, lot, expiry and places on the item), or a migrated item without instances.
        const row: Record<string, string | null> = {
          ...common,
          item_id: item.id,
          instance_id: null,
          quantity: migrated ? null : item.quantity,
          lot_number: item.lot_number,
          expiration_date: item.expiration_date,
          location: joinPath([item.location_name, item.sublocation_name]),
        };
        text += csvRecord(CSV_COLUMNS.map((c) => row[c] ?? null));
      }
    }
    written += items.length;
    onItems?.(written);
    yield text;
    const last = items[items.length - 1]!;
    cursor = { createdAt: last.created_at, id: last.id };
  }
}

/**
 * GET /labs/{id}/inventory/export: anyone who sees the lab; another tenant's lab is 404. The system (the command
 * line, an administrator's tool) exports any lab.
 */
export async function exportLabInventory(
  deps: ServiceDeps,
  by: Actor | SystemActor,
  labId: string,
  onItems?: (n: number) => void,
): Promise<InventoryExport> {
  const visible = isSystemActor(by) || (await findVisibleLab(deps.db, by, labId));
  const lab = visible ? await findLabRow(deps.db, labId) : undefined;
  if (!lab) throw notFound('lab');
  return { labId: lab.id, items: await countLabItems(deps.db, lab.id), chunks: csvChunks(deps, lab.id, lab.uses_instances === 1, onItems) };
}
