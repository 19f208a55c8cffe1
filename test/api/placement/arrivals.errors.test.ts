import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { activeCount, scenario, setModes } from './_placement.js';
import { flammableType, oxidizerType } from './_types.js';

// Block mode where containers still arrived unchecked (docs/safety.md): a new item with its first instances and an
// adjustment that adds. Each 409 carries `findings`, the same objects POST /placement-checks answers. Both databases.

const h = useHarness();

const adjust = (itemId: string, instanceId: string, delta: string) =>
  h.call(h.a.admin.token, {
    method: 'POST',
    url: `/inventory-items/${itemId}/adjustments`,
    payload: { delta, note: 'top up', instance_id: instanceId },
  });

const quantityOf = async (instanceId: string) =>
  (await h.deps.db.selectFrom('inventory_item_instances').select('quantity').where('id', '=', instanceId).executeTakeFirstOrThrow())
    .quantity;

describe('placement checks on arrivals, block mode', () => {
  it('an adjustment that adds over the limit: 409 limit_exceeded with findings, the quantity stays; one that removes goes', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'warn', 'block');
    const body = expectError(await adjust(s.acetone.itemId, s.acetone.instanceId, '2'), 409, 'limit_exceeded');
    expect(body.message).toMatch(/Solvent cabinet \d+: 4 L of 5 L; this adds 2 L, 1 L over the limit/);
    expect(body.findings.blocked).toBe(true);
    expect(body.findings.modes).toEqual({ segregation: 'warn', limits: 'block' });
    expect(body.findings.limits).toHaveLength(1);
    expect(body.findings.limits[0]).toMatchObject({
      control_area_id: s.cabinetId,
      category: 'flammable-liquid-ib-ic',
      state: 'liquid',
      current: '4',
      adding: '2',
      limit: '5',
      over_by: '1',
      unit: 'L',
    });
    expect(body.findings.limits[0].message).toBe(body.message.replace("Refused by the lab's safety settings: ", ''));
    expect(body.findings.segregation).toEqual([]);
    expect(await quantityOf(s.acetone.instanceId)).toBe('4');
    expect((await adjust(s.acetone.itemId, s.acetone.instanceId, '-1')).statusCode).toBe(200);
    expect((await adjust(s.acetone.itemId, s.acetone.instanceId, '2')).statusCode).toBe(200);
    expect(await quantityOf(s.acetone.instanceId)).toBe('5');
  });

  it('a new item whose first instances go over the limit: 409 with findings, no item is created', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'warn', 'block');
    const typeId = await flammableType(h, s.labId);
    const name = `Ethanol ${s.vendor}`;
    const create = (instances: { quantity: string; location_id: string }[]) =>
      h.call(h.a.admin.token, {
        method: 'POST',
        url: '/inventory-items',
        payload: { lab_id: s.labId, name, type_id: typeId, unit_size: '1 L', instances },
      });
    // Two bottles in two places of the same area count together: 1 L fits, 2 L do not.
    const inner = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/locations',
      payload: { lab_id: s.labId, parent_id: s.cabinetId, name: 'Lower shelf' },
    });
    expect(inner.statusCode, inner.body).toBe(201);
    const body = expectError(
      await create([
        { quantity: '1', location_id: s.cabinetId },
        { quantity: '1', location_id: inner.json().id },
      ]),
      409,
      'limit_exceeded',
    );
    expect(body.findings.blocked).toBe(true);
    expect(body.findings.limits[0]).toMatchObject({ control_area_id: s.cabinetId, current: '5', adding: '1', over_by: '1' });
    expect(await h.deps.db.selectFrom('inventory_items').select('id').where('name', '=', name).execute()).toEqual([]);
    // Elsewhere it is no business of the cabinet's.
    const fits = await create([
      { quantity: '1', location_id: s.cabinetId },
      { quantity: '3', location_id: s.shelfId },
    ]);
    expect(fits.statusCode, fits.body).toBe(201);
  });

  it('a new oxidizer put beside a solvent: 409 segregation_conflict with findings naming the container there', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'block', 'warn');
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/inventory-items',
      payload: {
        lab_id: s.labId,
        name: 'Nitric acid 65 %',
        type_id: await oxidizerType(h, s.labId),
        unit_size: '1 L',
        instances: [{ quantity: '1', location_id: s.cabinetId }],
      },
    });
    const body = expectError(res, 409, 'segregation_conflict');
    expect(body.findings.segregation).toHaveLength(1);
    expect(body.findings.segregation[0]).toMatchObject({
      incoming_item_name: 'Nitric acid 65 %',
      instance_id: s.acetone.instanceId,
      item_id: s.acetone.itemId,
      group: 'oxidizer',
      other_group: 'flammable',
    });
    expect(body.findings.limits).toEqual([]);
    expect(await activeCount(h, s.acetone.itemId)).toBe(1);
  });
});
