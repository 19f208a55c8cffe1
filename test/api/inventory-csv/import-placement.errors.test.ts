import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { emptyShelf, scenario, setModes } from '../placement/_placement.js';
import { importCsv, inventorySnapshot } from './_helpers.js';
import { cabinetPath, csvOf, pathOf } from './_placement.js';

// The CSV import in block mode (docs/safety.md "Inventory import"): a row whose container would go over a control
// area's limit or beside an incompatible one refuses the whole file, 409 naming the rows; nothing is written. Both databases.

const h = useHarness();

describe('CSV import placement checks, block mode', () => {
  it('over the limit: 409 limit_exceeded naming the row, with findings; nothing written', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'warn', 'block');
    const where = await cabinetPath(h, s);
    const before = await inventorySnapshot(h);
    const res = await importCsv(
      h,
      h.a.admin.token,
      s.labId,
      csvOf([
        ['Sodium chloride', '1 kg', '3', where, 'none'],
        ['Ethanol absolute', '1 L', '2', where, 'H225'],
      ]),
    );
    const body = expectError(res, 409, 'limit_exceeded');
    expect(body.message).toMatch(
      /nothing was imported \(line 3: Flammable liquids IB and IC in Solvent cabinet \d+: 4 L of 5 L; this adds 2 L, 1 L over the limit\)/,
    );
    expect(body.import_errors).toEqual([
      { line: 3, column: 'location', code: 'limit_exceeded', message: expect.stringMatching(/1 L over the limit$/) },
    ]);
    expect(body.error_count).toBe(1);
    expect(body.findings.blocked).toBe(true);
    expect(body.findings.limits[0]).toMatchObject({ control_area_id: s.cabinetId, current: '4', adding: '2', over_by: '1' });
    expect(await inventorySnapshot(h)).toEqual(before);
  });

  it('beside an incompatible container: 409 segregation_conflict naming the row; nothing written', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'block', 'warn');
    const before = await inventorySnapshot(h);
    const res = await importCsv(h, h.a.admin.token, s.labId, csvOf([['Nitric acid 65 %', '1 L', '1', await cabinetPath(h, s), 'H272']]));
    const body = expectError(res, 409, 'segregation_conflict');
    expect(body.import_errors).toEqual([
      {
        line: 2,
        column: 'location',
        code: 'segregation_conflict',
        message: expect.stringMatching(/^Nitric acid 65 % \(oxidizers\) beside Acetone/),
      },
    ]);
    expect(body.findings.segregation[0]).toMatchObject({ instance_id: s.acetone.instanceId, group: 'oxidizer', other_group: 'flammable' });
    expect(await inventorySnapshot(h)).toEqual(before);
  });
  it('two rows of one file that must be kept apart, going to an empty shelf: 409 naming both; nothing written', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'block', 'warn');
    const where = await pathOf(h, await emptyShelf(h, s.labId));
    const before = await inventorySnapshot(h);
    const res = await importCsv(
      h,
      h.a.admin.token,
      s.labId,
      csvOf([
        ['Sodium hydroxide pellets', '1 kg', '1', where, 'H290 H314'],
        ['Ethyl acetate', '2.5 L', '1', where, 'H225'],
        ['Calcium hypochlorite', '500 g', '1', where, 'H272'],
      ]),
    );
    const body = expectError(res, 409, 'segregation_conflict');
    expect(body.import_errors.map((e: { line: number }) => e.line)).toEqual([3, 4]);
    expect(body.import_errors[1].message).toMatch(/^Calcium hypochlorite \(oxidizers\) beside Ethyl acetate \(flammables\)/);
    // The other container is a row of the file: not stored, so no container id.
    expect(body.findings.segregation).toEqual([
      expect.objectContaining({ instance_id: null, item_name: 'Ethyl acetate', incoming_item_name: 'Calcium hypochlorite' }),
    ]);
    expect(await inventorySnapshot(h)).toEqual(before);
  });
});
