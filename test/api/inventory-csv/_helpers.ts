// Shared by the CSV import and export tests (no tests in here).
import { parse } from 'csv-parse/sync';
import type { Harness } from '../../helpers/harness.js';

export const importCsv = (
  h: Harness,
  token: string | null,
  labId: string,
  csv: string,
  dryRun = false,
  headers: Record<string, string> = {},
) =>
  h.call(token, {
    method: 'POST',
    url: `/labs/${labId}/inventory/import${dryRun ? '?dry_run=true' : ''}`,
    headers: { 'content-type': 'text/csv', ...headers },
    payload: csv,
  });

export const exportCsv = (h: Harness, token: string | null, labId: string) =>
  h.call(token, { method: 'GET', url: `/labs/${labId}/inventory/export` });

/** The export's records as objects by header (the header row itself dropped). */
export const records = (text: string): Record<string, string>[] => parse(text, { columns: true, bom: true });

/** Everything the tests compare the database by: items, instances, locations, events, search rows. */
export async function inventorySnapshot(h: Harness) {
  const db = h.deps.db;
  const [items, instances, locations, events, search] = await Promise.all([
    db.selectFrom('inventory_items').selectAll().orderBy('id').execute(),
    db.selectFrom('inventory_item_instances').selectAll().orderBy('id').execute(),
    db.selectFrom('locations').selectAll().orderBy('id').execute(),
    db.selectFrom('events').select('id').orderBy('id').execute(),
    db.selectFrom('inventory_item_search').select('item_id').orderBy('item_id').execute(),
  ]);
  return { items, instances, locations, events, search };
}

/** `rows` data rows: items of 1–2 instances each, on a few hundred locations. */
export function largeCsv(rows: number, tag = 'Load'): string {
  const lines = ['name,vendor,catalog_number,quantity,lot_number,expiration_date,location,technical_details'];
  for (let i = 0; i < rows; i++) {
    const item = Math.floor(i / 2);
    lines.push(
      `${tag} reagent ${item},Vendor ${item % 37},C-${item},${(i % 9) + 1},L${i},2027-0${(i % 9) + 1}-15,Room ${item % 7} / Shelf ${item % 40},"notes, item ${item}"`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
