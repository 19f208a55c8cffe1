import { afterEach, describe, expect, it } from 'vitest';
import { expectHoldingsTrue } from '../../helpers/holdings.js';
import { useHarness } from '../../helpers/use-harness.js';
import { emptyShelf, scenario, setModes } from '../placement/_placement.js';
import { importCsv } from './_helpers.js';
import { cabinetPath, csvOf, pathOf } from './_placement.js';

// The CSV import in warn mode (docs/safety.md "Inventory import"): the rows whose containers go beside an
// incompatible one or over a control area's limit are imported and named in placement_warnings. Both databases.

const h = useHarness();
// Whatever the writes did, the control-area totals still add up to the containers (src/hazards/holdings-repository.ts).
afterEach(() => expectHoldingsTrue(h.deps.db));

describe('CSV import placement checks, warn mode', () => {
  it('imports everything and names the rows that went over the limit and beside the solvent; harmless rows are not named', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'warn', 'warn');
    const where = await cabinetPath(h, s);
    const csv = csvOf([
      ['Ethanol absolute', '1 L', '2', where, 'H225'],
      ['Nitric acid 65 %', '1 L', '1', where, 'H272'],
      ['Sodium chloride', '1 kg', '3', where, 'none'],
    ]);
    const res = await importCsv(h, h.a.admin.token, s.labId, csv);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ dry_run: false, items: 3, instances: 3, error_count: 0 });
    const warnings = body.placement_warnings as { line: number; column: string; code: string; message: string }[];
    expect(warnings.filter((w) => w.code === 'limit_exceeded').map((w) => w.line)).toEqual([2]);
    expect(warnings.find((w) => w.code === 'limit_exceeded')!.message).toMatch(
      /Solvent cabinet \d+: 4 L of 5 L; this adds 2 L, 1 L over the limit/,
    );
    // The acid beside the acetone stored there (its row), and beside the ethanol of the same file (both rows).
    const seg = warnings.filter((w) => w.code === 'segregation_conflict');
    expect(seg.map((w) => w.line)).toEqual([3, 2, 3]);
    expect(seg[0]!.message).toMatch(/^Nitric acid 65 % \(oxidizers\) beside Acetone \d+ \(flammables\)/);
    expect(seg[1]!.message).toMatch(/^Nitric acid 65 % \(oxidizers\) beside Ethanol absolute \(flammables\)/);
    expect(warnings.every((w) => w.column === 'location')).toBe(true);
    expect(warnings.map((w) => w.line)).not.toContain(4);
    const made = await h.deps.db
      .selectFrom('inventory_items')
      .select('name')
      .where('lab_id', '=', s.labId)
      .where('name', 'in', ['Ethanol absolute', 'Nitric acid 65 %', 'Sodium chloride'])
      .execute();
    expect(made).toHaveLength(3);
  });

  it('two rows of one file going to one place are checked against each other: an empty shelf warns of them both', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'warn', 'warn');
    const where = await pathOf(h, await emptyShelf(h, s.labId));
    const res = await importCsv(
      h,
      h.a.admin.token,
      s.labId,
      csvOf([
        ['Toluene', '1 L', '1', where, 'H225'],
        ['Sodium chloride', '1 kg', '3', where, 'none'],
        ['Potassium permanganate', '500 g', '1', where, 'H272'],
        ['Toluene, second lot', '1 L', '1', where, 'H225'],
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ items: 4, instances: 4, error_count: 0 });
    const seg = (res.json().placement_warnings as { line: number; code: string; message: string }[]).filter(
      (w) => w.code === 'segregation_conflict',
    );
    // Each pair once, the later row against the earlier, both rows named; the salt is in none.
    expect(seg.map((w) => `${w.line}: ${w.message.split(':')[0]}`)).toEqual([
      '2: Potassium permanganate (oxidizers) beside Toluene (flammables)',
      '4: Potassium permanganate (oxidizers) beside Toluene (flammables)',
      '4: Toluene, second lot (flammables) beside Potassium permanganate (oxidizers)',
      '5: Toluene, second lot (flammables) beside Potassium permanganate (oxidizers)',
    ]);
  });

  it('a file of harmless rows answers no warnings, even in block mode', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'block', 'block');
    const res = await importCsv(h, h.a.admin.token, s.labId, csvOf([['Sodium chloride', '1 kg', '3', await cabinetPath(h, s), '']]));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().placement_warnings).toBeUndefined();
  });
});
