// GET /labs/{id}/inventory/export: rows per instance or per item, quoting, formula cells neutralised, streaming pages.
import { describe, expect, it } from 'vitest';
import { EXPORT_PAGE } from '../../../src/inventory/csv/export.js';
import { CSV_COLUMNS } from '../../../src/inventory/csv/rules.js';
import { createItem } from '../../../src/inventory/items.js';
import { createLab } from '../../../src/labs/service.js';
import { useHarness } from '../../helpers/use-harness.js';
import { exportCsv, importCsv, records } from './_helpers.js';

const h = useHarness();

describe('GET /labs/{id}/inventory/export (happy)', () => {
  it('a migrated lab: one row per active instance with its location path; an attachment in UTF-8', async () => {
    const res = await exportCsv(h, h.a.member.token, h.a.migratedLab.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="inventory-${h.a.migratedLab.id}.csv"`);
    expect(res.body.split('\r\n')[0]).toBe(CSV_COLUMNS.join(','));
    const rows = records(res.body);
    expect(rows.map((r) => [r.item_id, r.instance_id, r.name, r.type, r.quantity, r.lot_number, r.expiration_date, r.location])).toEqual([
      [
        h.a.migratedLab.itemId,
        h.a.migratedLab.instanceIds[0],
        'Anti-GFP A',
        'Antibody',
        '0.1',
        'A1',
        '2027-06-30',
        'Room 101 / Freezer A / Shelf 2',
      ],
      [h.a.migratedLab.itemId, h.a.migratedLab.instanceIds[1], 'Anti-GFP A', 'Antibody', '0.2', '', '', ''],
    ]);
  });

  it('a legacy lab: one row per item, location and sublocation as a path, the quantity on the item', async () => {
    const rows = records((await exportCsv(h, h.a.admin.token, h.a.legacyLab.id)).body);
    expect(rows).toEqual([
      expect.objectContaining({
        item_id: h.a.legacyLab.itemId,
        instance_id: '',
        name: 'Ethanol A',
        type: 'Reagent',
        vendor: 'Sigma',
        catalog_number: 'E7023',
        price: '42.50',
        unit_size: '1 L',
        quantity: '3',
        lot_number: 'LOT-1',
        expiration_date: '2027-01-31',
        location: 'Cabinet 1 / Shelf A',
      }),
    ]);
  });

  it('neutralises formula cells and quotes commas, quotes and line breaks (RFC 4180)', async () => {
    const names = ['=HYPERLINK("http://evil")', '+1', '-2', '@SUM(A1)', '\tTab', '\rCR', "'=already", 'plain, "quoted"\nnext line'];
    for (const name of names) await createItem(h.deps, h.a.admin.actor, { labId: h.a.otherLab.id, name, technicalDetails: '=1+1' });
    const res = await exportCsv(h, h.a.admin.token, h.a.otherLab.id);
    const rows = records(res.body);
    expect(rows.map((r) => r.name)).toEqual([
      '\'=HYPERLINK("http://evil")',
      "'+1",
      "'-2",
      "'@SUM(A1)",
      "'\tTab",
      "'\rCR",
      "''=already",
      'plain, "quoted"\nnext line',
    ]);
    expect(rows.every((r) => r.technical_details === "'=1+1")).toBe(true);
    expect(res.body).toContain('"\'=HYPERLINK(""http://evil"")"');
    // Imported back (ids cleared: the file's own records all start "<item_id>,,"), the cells are the values they were.
    const lab = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Formula copy' });
    const copy = res.body.replace(/^[^\r]*/, CSV_COLUMNS.slice(2).join(',')).replace(/\r\n[0-9a-f-]{36},,/g, '\r\n');
    expect((await importCsv(h, h.a.admin.token, lab.id, copy)).statusCode).toBe(200);
    const back = await h.deps.db
      .selectFrom('inventory_items')
      .select(['name', 'technical_details'])
      .where('lab_id', '=', lab.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(back.map((r) => r.name).sort()).toEqual([...names].sort());
    expect(back.every((r) => r.technical_details === '=1+1')).toBe(true);
  });

  it(`pages through more than ${EXPORT_PAGE} items in creation order, each once; items without instances keep a row`, async () => {
    const lab = h.a.migratedLab.id;
    const n = EXPORT_PAGE + 250;
    const csv = `name,quantity,lot_number\n${Array.from({ length: n }, (_, i) => (i % 2 ? `Bulk ${i},1,L${i}` : `Bulk ${i},,`)).join('\n')}\n`;
    expect((await importCsv(h, h.a.admin.token, lab, csv)).json().items).toBe(n);
    const rows = records((await exportCsv(h, h.a.admin.token, lab)).body).filter((r) => r.name!.startsWith('Bulk '));
    expect(rows.map((r) => r.name)).toEqual(Array.from({ length: n }, (_, i) => `Bulk ${i}`));
    expect(new Set(rows.map((r) => r.item_id)).size).toBe(n);
    expect(rows.filter((r) => r.instance_id === '').map((r) => r.quantity)).toEqual(Array(n / 2).fill(''));
  });
});
