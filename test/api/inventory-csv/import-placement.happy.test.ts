import { afterEach, describe, expect, it } from 'vitest';
import { expectHoldingsTrue } from '../../helpers/holdings.js';
import { useHarness } from '../../helpers/use-harness.js';
import { scenario, setModes } from '../placement/_placement.js';
import { importCsv } from './_helpers.js';
import { cabinetPath, csvOf } from './_placement.js';

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
    const seg = warnings.filter((w) => w.code === 'segregation_conflict');
    expect(seg.map((w) => w.line)).toEqual([3]);
    expect(seg[0]!.message).toMatch(/^Nitric acid 65 % \(oxidizers\) beside Acetone \d+ \(flammables\)/);
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

  it('a file of harmless rows answers no warnings, even in block mode', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'block', 'block');
    const res = await importCsv(h, h.a.admin.token, s.labId, csvOf([['Sodium chloride', '1 kg', '3', await cabinetPath(h, s), '']]));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().placement_warnings).toBeUndefined();
  });
});
