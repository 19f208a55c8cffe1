import { afterEach, describe, expect, it } from 'vitest';
import { expectHoldingsTrue } from '../../helpers/holdings.js';
import { useHarness } from '../../helpers/use-harness.js';
import { apply, count, started } from '../stocktake/_stocktake.js';
import { scenario, setModes } from './_placement.js';
import { flammableType } from './_types.js';

// Arrivals in warn mode (the default, docs/safety.md): a new item with instances and an adjustment go ahead as
// before; a stocktake's apply is never refused, even in block mode, and answers what the count put where. Both databases.

const h = useHarness();
// Whatever the writes did, the control-area totals still add up to the containers (src/hazards/holdings-repository.ts).
afterEach(() => expectHoldingsTrue(h.deps.db));

describe('placement checks on arrivals, warn mode and stocktakes', () => {
  it('warn mode: a new item over the limit and an adjustment over it go ahead; the meter shows the area over', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'warn', 'warn');
    const typeId = await flammableType(h, s.labId);
    const created = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/inventory-items',
      payload: {
        lab_id: s.labId,
        name: 'Ethanol',
        type_id: typeId,
        unit_size: '1 L',
        instances: [{ quantity: '2', location_id: s.cabinetId }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    // The contract's item keeps its shape.
    expect(Object.keys(created.json())).not.toContain('warnings');
    const adjusted = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/inventory-items/${s.acetone.itemId}/adjustments`,
      payload: { delta: '1', note: 'found another', instance_id: s.acetone.instanceId },
    });
    expect(adjusted.statusCode, adjusted.body).toBe(200);
    const meter = await h.call(h.a.admin.token, { method: 'GET', url: `/locations/${s.cabinetId}/control-area/meter` });
    const line = meter.json().lines.find((l: { category: string }) => l.category === 'flammable-liquid-ib-ic');
    expect(line).toMatchObject({ amount: '7', limit: '5', over: true });
  });

  it('a stocktake that finds more than the limit allows, and an oxidizer in the solvent cabinet: applied even in block mode, with findings', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'block', 'block');
    const view = await started(h, h.a.admin.token, s.cabinetId);
    // 6 bottles counted where 4 were recorded; the peroxide recorded on the bench shelf was found in the cabinet.
    expect((await count(h, h.a.admin.token, view.id, s.acetone.instanceId, { quantity: '6' })).statusCode).toBe(200);
    expect((await count(h, h.a.admin.token, view.id, s.peroxide.instanceId)).statusCode).toBe(200);
    const res = await apply(h, h.a.admin.token, view.id);
    expect(res.statusCode, res.body).toBe(200);
    const f = res.json().placement_findings;
    expect(f.blocked).toBe(false);
    expect(f.modes).toEqual({ segregation: 'block', limits: 'block' });
    expect(f.limits).toHaveLength(1);
    expect(f.limits[0]).toMatchObject({ control_area_id: s.cabinetId, current: '4', adding: '2', limit: '5', over_by: '1' });
    expect(f.segregation).toHaveLength(1);
    expect(f.segregation[0]).toMatchObject({ instance_id: s.acetone.instanceId, group: 'oxidizer', other_group: 'flammable' });
    expect(f.segregation[0].message).toMatch(/^Hydrogen peroxide 30 % \d+ \(oxidizers\) beside Acetone \d+ \(flammables\)/);
    // Reality was recorded: the quantity and the place changed.
    const rows = await h.deps.db
      .selectFrom('inventory_item_instances')
      .select(['id', 'quantity', 'location_id'])
      .where('id', 'in', [s.acetone.instanceId, s.peroxide.instanceId])
      .execute();
    expect(rows.find((r) => r.id === s.acetone.instanceId)?.quantity).toBe('6');
    expect(rows.find((r) => r.id === s.peroxide.instanceId)?.location_id).toBe(s.cabinetId);
    // Only the apply answers findings; reading the count later does not.
    const later = await h.call(h.a.admin.token, { method: 'GET', url: `/stocktakes/${view.id}` });
    expect(later.json().placement_findings).toBeUndefined();
  });

  it('a stocktake that changes nothing where it matters answers empty findings', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'warn', 'warn');
    const view = await started(h, h.a.admin.token, s.cabinetId);
    expect((await count(h, h.a.admin.token, view.id, s.acetone.instanceId, { quantity: '3' })).statusCode).toBe(200);
    const res = await apply(h, h.a.admin.token, view.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().placement_findings).toEqual({
      segregation: [],
      limits: [],
      unknown_amounts: [],
      modes: { segregation: 'warn', limits: 'warn' },
      blocked: false,
    });
  });
});
