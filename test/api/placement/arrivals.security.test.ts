import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { scenario, setModes } from './_placement.js';
import { flammableType } from './_types.js';

// The arrivals' checks never tell another tenant anything (docs/safety.md): in block mode, where a 409 would carry
// the findings, another organization's admin and a user of no lab get 404 without them, and nothing changes. Both databases.

const h = useHarness();

const quantityOf = async (instanceId: string) =>
  (await h.deps.db.selectFrom('inventory_item_instances').select('quantity').where('id', '=', instanceId).executeTakeFirstOrThrow())
    .quantity;

describe('placement checks on arrivals (security)', () => {
  it("an adjustment of another tenant's container over its area's limit: 404, no findings, nothing changes", async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'block', 'block');
    for (const token of [h.b.admin.token, h.b.member.token, h.a.outsider.token]) {
      const res = await h.call(token, {
        method: 'POST',
        url: `/inventory-items/${s.acetone.itemId}/adjustments`,
        payload: { delta: '5', note: 'x', instance_id: s.acetone.instanceId },
      });
      const body = expectError(res, 404, 'not_found');
      expect(body.findings).toBeUndefined();
      expect(res.body).not.toContain('Solvent cabinet');
    }
    expect(await quantityOf(s.acetone.instanceId)).toBe('4');
  });

  it("a new item in one's own lab placed in another tenant's control area: 404 for the location, no findings", async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'block', 'block');
    const typeId = await flammableType(h, s.labId);
    // b's own lab blocks too: a check run at a's cabinet would refuse with a's figures.
    const bModes = await h.call(h.b.admin.token, {
      method: 'PUT',
      url: `/labs/${h.b.migratedLab.id}/safety-settings`,
      payload: { segregation: 'block', limits: 'block' },
    });
    expect(bModes.statusCode, bModes.body).toBe(200);
    const bType = await h.call(h.b.admin.token, {
      method: 'POST',
      url: '/types',
      payload: { lab_id: h.b.migratedLab.id, name: 'B solvents' },
    });
    expect(bType.statusCode, bType.body).toBe(201);
    await h.call(h.b.admin.token, { method: 'PUT', url: `/types/${bType.json().id}/hazards`, payload: { hazard_statements: ['H225'] } });
    const res = await h.call(h.b.admin.token, {
      method: 'POST',
      url: '/inventory-items',
      payload: {
        lab_id: h.b.migratedLab.id,
        name: 'Smuggled ethanol',
        type_id: bType.json().id,
        unit_size: '1 L',
        instances: [{ quantity: '9', location_id: s.cabinetId }],
      },
    });
    expect(expectError(res, 404, 'not_found').findings).toBeUndefined();
    expect(res.body).not.toContain('Acetone');
    expect(res.body).not.toContain('Solvent cabinet');
    // And in the other direction, a's type is not b's to use.
    const typed = await h.call(h.b.admin.token, {
      method: 'POST',
      url: '/inventory-items',
      payload: { lab_id: h.b.migratedLab.id, name: 'Typed', type_id: typeId, instances: [] },
    });
    expectError(typed, 404, 'not_found');
    expect(await h.deps.db.selectFrom('inventory_items').select('id').where('name', 'in', ['Smuggled ethanol', 'Typed']).execute()).toEqual(
      [],
    );
  });

  it("applying another tenant's stocktake: 404, nothing applied", async () => {
    const s = await scenario(h);
    const view = await h.call(h.a.admin.token, { method: 'POST', url: '/stocktakes', payload: { location_id: s.cabinetId } });
    expect(view.statusCode, view.body).toBe(201);
    await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/stocktakes/${view.json().id}/counts/${s.acetone.instanceId}`,
      payload: { quantity: '9' },
    });
    const res = await h.call(h.b.admin.token, { method: 'POST', url: `/stocktakes/${view.json().id}/apply`, payload: {} });
    const body = expectError(res, 404, 'not_found');
    expect(body.placement_findings).toBeUndefined();
    expect(await quantityOf(s.acetone.instanceId)).toBe('4');
  });
});
