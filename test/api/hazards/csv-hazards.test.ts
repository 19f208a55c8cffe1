// The hazard_statements column of the inventory CSV (docs/csv.md, docs/hazards.md): exported as the item's own
// statements ("none" for no hazards, empty when it follows its type), imported back the same (a round trip), and a
// bad code refuses its row by name and imports nothing.
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../../src/inventory/csv/rules.js';
import { createLab } from '../../../src/labs/service.js';
import { addItem } from '../../helpers/data.js';
import { useHarness } from '../../helpers/use-harness.js';
import { exportCsv, importCsv, inventorySnapshot, records } from '../inventory-csv/_helpers.js';
import { hazardsFixture } from './_hazards.js';

const h = useHarness();
const f = hazardsFixture(h);

const hazardsOf = async (labId: string) => {
  const rows = records((await exportCsv(h, h.a.admin.token, labId)).body);
  return Object.fromEntries(rows.map((r) => [r.name, r.hazard_statements]));
};

describe('CSV hazard_statements', () => {
  it('exports the own statements, and a copy imported into another lab has the same', async () => {
    const lab = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Solvent store' });
    const csv = [
      'name,hazard_statements',
      'Ethanol,"H225, H319"',
      'Methanol,H225;H301 + H311 + H331 h370',
      'Water,none',
      'Unknown bottle,',
    ].join('\r\n');
    const res = await importCsv(h, h.a.admin.token, lab.id, `${csv}\r\n`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await hazardsOf(lab.id)).toEqual({
      Ethanol: 'H225 H319',
      Methanol: 'H225 H370 H301+H311+H331',
      Water: 'none',
      'Unknown bottle': '',
    });
    const [ethanol] = await h.deps.db
      .selectFrom('inventory_items')
      .select('id')
      .where('lab_id', '=', lab.id)
      .where('name', '=', 'Ethanol')
      .execute();
    expect((await f.getItem(h.a.admin.token, ethanol!.id)).json()).toMatchObject({ source: 'item', pictograms: ['GHS02', 'GHS07'] });

    // Round trip: the export, ids cleared, into a third lab gives the same export.
    const exported = (await exportCsv(h, h.a.admin.token, lab.id)).body;
    const copyLab = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Solvent store copy' });
    const copy = exported.replace(/^[^\r]*/, CSV_COLUMNS.slice(2).join(',')).replace(/\r\n[0-9a-f-]{36},,/g, '\r\n');
    const back = await importCsv(h, h.a.admin.token, copyLab.id, copy);
    expect(back.statusCode, back.body).toBe(200);
    expect(await hazardsOf(copyLab.id)).toEqual(await hazardsOf(lab.id));
  });

  it("an item that follows its type exports an empty cell, never its type's statements", async () => {
    await f.putType(h.a.admin.token, h.a.legacyLab.typeId, ['H290']);
    await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Follows its type', typeId: h.a.legacyLab.typeId, quantity: '1' });
    expect((await hazardsOf(h.a.legacyLab.id))['Follows its type']).toBe('');
  });

  it('a bad code refuses its row by name and imports nothing', async () => {
    const lab = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Refused' });
    const before = await inventorySnapshot(h);
    const res = await importCsv(h, h.a.admin.token, lab.id, 'name,hazards\r\nGood,H225\r\nBad,H225 H999\r\nWorse,EUH066\r\n');
    expect(res.statusCode, res.body).toBe(422);
    const errors = res.json().import_errors;
    expect(errors.map((e: any) => [e.line, e.column, e.code])).toEqual([
      [3, 'hazard_statements', 'invalid_hazard_statement'],
      [4, 'hazard_statements', 'invalid_hazard_statement'],
    ]);
    expect(errors[0].message).toContain('"H999" is not a GHS hazard statement');
    expect(await inventorySnapshot(h)).toEqual(before);
    expect(await h.deps.db.selectFrom('hazard_sets').selectAll().where('lab_id', '=', lab.id).execute()).toEqual([]);
  });

  it('rows of one item must agree on their statements (a lab that uses instances)', async () => {
    const csv = 'name,vendor,catalog_number,quantity,hazard_statements\r\nAcetone,V,1,1,H225\r\nAcetone,V,1,2,H226\r\n';
    const res = await importCsv(h, h.a.admin.token, h.a.migratedLab.id, csv, true);
    expect(res.json().errors).toEqual([
      expect.objectContaining({ line: 3, code: 'conflicting_item', message: expect.stringContaining('hazard statements') }),
    ]);
  });
});
