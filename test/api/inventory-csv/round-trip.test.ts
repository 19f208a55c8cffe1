// 100,000 rows imported into a migrated lab, exported, and the export imported into another lab: the same rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { exportCsv, importCsv, records } from './_helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const ROWS = 100_000;
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
  it(`imports ${ROWS.toLocaleString('en')} rows, exports them, and the export imports into another lab as the same rows`, async () => {
    const lab = await createLab(h.deps.db, { organizationId: h.a.orgId, name: 'Big lab', usesInstances: true });
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
    const source = records(csv).map((r) => ({ ...r, technical_details: r.technical_details === '=cmd' ? "'=cmd" : r.technical_details }));
    expect(comparable(rows).sort()).toEqual(comparable(source).sort());

    // The export goes back in (ids cleared) and comes out again the same, item for item.
    const copyLab = await createLab(h.deps.db, { organizationId: h.a.orgId, name: 'Copy lab', usesInstances: true });
    const copy = exported.body.replace(/^item_id,instance_id,/, '').replace(/\r\n[0-9a-f-]{36},[0-9a-f-]{36},/g, '\r\n');
    const again = await importCsv(h, h.a.admin.token, copyLab.id, copy);
    expect(again.json()).toMatchObject({ rows: ROWS, items: imported.json().items, instances: ROWS, error_count: 0 });
    expect(comparable(records((await exportCsv(h, h.a.admin.token, copyLab.id)).body)).sort()).toEqual(comparable(rows).sort());
  }, 180_000);
});
