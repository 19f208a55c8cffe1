// 100,000 rows imported into a migrated lab over HTTP and exported again: the same rows (issue 12). Here with the
// slow tests: ~10 s of CPU on SQLite (the import ~8 s, the export ~3 s), much longer in wall time on a loaded machine.
import { describe, expect, it } from 'vitest';
import { createLab } from '../../src/labs/service.js';
import { exportCsv, importCsv, records } from '../api/inventory-csv/_helpers.js';
import { useHarness } from '../helpers/use-harness.js';

const h = useHarness();

// 100,000 rows on SQLite (the size); on PostgreSQL CSV_ROUND_TRIP_ROWS, 20,000 by default, as the lab migration
// test does: the same statements run, and the PostgreSQL stage of .ci/run stays within its time.
const ROWS = Number(process.env.CSV_ROUND_TRIP_ROWS ?? (process.env.DATABASE_URL?.startsWith('postgres') ? 20_000 : 100_000));
const HEADER = 'name,vendor,catalog_number,quantity,lot_number,expiration_date,location,technical_details';

/** Every third item has two instances (two rows); locations over three levels; some cells a spreadsheet would run. */
function file(): string {
  const lines = [HEADER];
  for (let i = 0; lines.length <= ROWS; i++) {
    const base = `Reagent ${i},Vendor ${i % 50},C-${i}`;
    const loc = `Room ${i % 4} / Freezer ${i % 7} / Shelf ${i % 5}`;
    lines.push(`${base},${(i % 97) + 0.5},L${i},2027-0${(i % 9) + 1}-1${i % 10},${loc},${i % 10 === 0 ? '=cmd' : 'note'}`);
    if (i % 3 === 0 && lines.length <= ROWS) lines.push(`${base},1,M${i},,,${i % 10 === 0 ? '=cmd' : 'note'}`);
  }
  return `${lines.join('\n')}\n`;
}

const comparable = (rows: Record<string, string>[]) =>
  rows.map((r) =>
    [r.name, r.vendor, r.catalog_number, r.quantity, r.lot_number, r.expiration_date, r.location, r.technical_details].join('|'),
  );

describe('CSV round trip', () => {
  it(`imports ${ROWS.toLocaleString('en')} rows and exports the same rows, formula cells neutralised`, async () => {
    const lab = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Big lab', usesInstances: true });
    const csv = file();
    const imported = await importCsv(h, h.a.admin.token, lab.id, csv);
    expect(imported.statusCode, imported.body.slice(0, 500)).toBe(200);
    expect(imported.json()).toMatchObject({ rows: ROWS, instances: ROWS, error_count: 0, locations_created: 4 + 4 * 7 + 4 * 7 * 5 });

    const exported = await exportCsv(h, h.a.admin.token, lab.id);
    expect(exported.statusCode).toBe(200);
    const rows = records(exported.body);
    expect(rows).toHaveLength(ROWS);
    expect(rows.filter((r) => r.technical_details === "'=cmd").length).toBeGreaterThan(0);
    expect(rows.some((r) => r.technical_details === '=cmd')).toBe(false);
    const source = records(csv).map((r) => ({ ...r, technical_details: r.technical_details === '=cmd' ? "'=cmd" : r.technical_details! }));
    expect(comparable(rows).sort()).toEqual(comparable(source).sort());
  }, 180_000);
});
