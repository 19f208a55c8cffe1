import { ownHazardSets } from '../../hazards/repository.js';
import { findLabRow, findVisibleLab } from '../../labs/repository.js';
import { locationPaths, locationsOfLab } from '../../locations/repository.js';
import { type Actor, isSystemActor, type SystemActor } from '../../shared/actor.js';
import type { ServiceDeps } from '../../shared/deps.js';
import { notFound } from '../../shared/errors.js';
import { typesOfLab } from '../../types/repository.js';
import { activeInstancesOf } from '../repository.js';
import { type Cursor, countLabItems, type ExportItem, labItemsAfter } from './repository.js';
import { CSV_COLUMNS, type CsvColumn, columnOf, csvField, csvRecord, hazardCell, joinPath } from './rules.js';

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

/** The columns an instance gives its row; an item without instances gives them itself (legacyCells). */
const INSTANCE_COLUMNS: readonly CsvColumn[] = ['instance_id', 'quantity', 'lot_number', 'expiration_date', 'location'];
const at = (c: CsvColumn) => CSV_COLUMNS.indexOf(c);
const [INSTANCE_ID, QUANTITY, LOT, EXPIRY, LOCATION] = INSTANCE_COLUMNS.map(at) as [number, number, number, number, number];
const HAZARDS = at('hazard_statements');

async function* csvChunks(deps: ServiceDeps, labId: string, migrated: boolean, onItems?: (n: number) => void): AsyncGenerator<string> {
  const types = new Map((await typesOfLab(deps.db, labId)).map((t) => [t.id, t.name]));
  const lab = await locationsOfLab(deps.db, labId);
  const paths = await locationPaths(
    deps.db,
    lab.map((l) => l.id),
  );
  // Each location's cell, written once: rows are the same cells joined (csvRecord's output, without its array).
  const locationCells = new Map<string, string>();
  for (const [id, p] of paths) locationCells.set(id, csvField(joinPath(p.pathNames)));
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
    // The items' own statements (one statement a page): an item that follows its type has an empty cell.
    const hazards = await ownHazardSets(
      deps.db,
      items.map((i) => i.id),
    );
    // Instances come grouped by item, in the items' creation order within each (activeInstancesOf).
    const byItem = new Map<string, typeof instances>();
    for (const inst of instances) {
      const list = byItem.get(inst.item_id);
      if (list) list.push(inst);
      else byItem.set(inst.item_id, [inst]);
    }
    let text = '';
    for (const item of items) {
      const cells = itemCells(item, types);
      cells[HAZARDS] = csvField(hazardCell(hazards.get(item.id)?.codes ?? null));
      const own = byItem.get(item.id);
      if (!own) {
        // A legacy item (its quantity, lot, expiry and places on the item), or a migrated item without instances.
        legacyCells(cells, item, migrated);
        text += `${cells.join(',')}\r\n`;
        continue;
      }
      for (const i of own) {
        cells[INSTANCE_ID] = csvField(i.id);
        cells[QUANTITY] = csvField(i.quantity);
        cells[LOT] = csvField(i.lot_number);
        cells[EXPIRY] = csvField(i.expiration_date);
        cells[LOCATION] = i.location_id ? (locationCells.get(i.location_id) ?? '') : '';
        text += `${cells.join(',')}\r\n`;
      }
    }
    written += items.length;
    onItems?.(written);
    yield text;
    const last = items[items.length - 1]!;
    cursor = { createdAt: last.created_at, id: last.id };
  }
}

/** The item's own cells, encoded (csvField); the instance columns empty. */
function itemCells(item: ExportItem, types: Map<string, string>): string[] {
  return CSV_COLUMNS.map((c) => {
    if (INSTANCE_COLUMNS.includes(c) || c === 'hazard_statements') return '';
    if (c === 'item_id') return csvField(item.id);
    if (c === 'type') return csvField(item.type_id ? (types.get(item.type_id) ?? null) : null);
    return csvField(item[columnOf(c)]);
  });
}

function legacyCells(cells: string[], item: ExportItem, migrated: boolean): void {
  cells[QUANTITY] = csvField(migrated ? null : item.quantity);
  cells[LOT] = csvField(item.lot_number);
  cells[EXPIRY] = csvField(item.expiration_date);
  cells[LOCATION] = csvField(joinPath([item.location_name, item.sublocation_name]));
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
