import { afterEach, describe, expect, it } from 'vitest';
import { setHazardsIn } from '../../../src/hazards/repository.js';
import { createItem } from '../../../src/inventory/items.js';
import { expectHoldingsTrue } from '../../helpers/holdings.js';
import { useHarness } from '../../helpers/use-harness.js';
import { activeCount, addInstance, emptyShelf, move, preflight, scenario } from './_placement.js';

// Placement checks in warn mode (the default, docs/safety.md): the write goes ahead, the preflight and the reports
// say what is wrong, with the figures. Both databases.

const h = useHarness();
// Whatever the writes did, the control-area totals still add up to the containers (src/hazards/holdings-repository.ts).
afterEach(() => expectHoldingsTrue(h.deps.db));

describe('placement checks, warn mode', () => {
  it('putting an oxidizer beside a solvent: the preflight says which container conflicts, the move goes ahead, the report lists it', async () => {
    const s = await scenario(h);
    const check = await preflight(h, h.a.admin.token, { location_id: s.cabinetId, instances: [{ instance_id: s.peroxide.instanceId }] });
    expect(check.statusCode, check.body).toBe(200);
    const body = check.json();
    expect(body.blocked).toBe(false);
    expect(body.modes).toEqual({ segregation: 'warn', limits: 'warn' });
    expect(body.segregation).toHaveLength(1);
    expect(body.segregation[0]).toMatchObject({ instance_id: s.acetone.instanceId, group: 'oxidizer', other_group: 'flammable' });
    expect(body.segregation[0].message).toMatch(
      /^Hydrogen peroxide 30 % \d+ \(oxidizers\) beside Acetone \d+ \(flammables\): an oxidizer feeds a fire/,
    );

    const moved = await move(h, s.peroxide.itemId, s.peroxide.instanceId, s.cabinetId);
    expect(moved.statusCode, moved.body).toBe(200);
    // The contract's item keeps its shape: no warnings field on it.
    expect(Object.keys(moved.json())).not.toContain('warnings');

    const report = await h.call(h.a.admin.token, { method: 'GET', url: `/locations/${s.cabinetId}/segregation-conflicts` });
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().conflicts).toHaveLength(1);
    expect(report.json().conflicts[0].reason).toBe('an oxidizer feeds a fire of flammables');
    const shelf = await h.call(h.a.admin.token, { method: 'GET', url: `/locations/${s.shelfId}/segregation-conflicts` });
    expect(shelf.json().conflicts).toEqual([]);
  });

  it('containers that arrive together are checked against each other, and against one already there that grows', async () => {
    const s = await scenario(h);
    const both = [{ instance_id: s.peroxide.instanceId }, { instance_id: s.acetone.instanceId }];
    const together = await preflight(h, h.a.admin.token, { location_id: await emptyShelf(h, s.labId), instances: both });
    expect(together.statusCode, together.body).toBe(200);
    // One finding for the pair: the later against the earlier, which is named with its container.
    expect(together.json().segregation).toEqual([
      expect.objectContaining({ incoming_item_name: expect.stringMatching(/^Acetone/), instance_id: s.peroxide.instanceId }),
    ]);
    // The peroxide is on the bench shelf already (a larger quantity brings nothing new beside the others there),
    // but the acetone arriving beside it does.
    const beside = await preflight(h, h.a.admin.token, {
      location_id: s.shelfId,
      instances: [{ instance_id: s.peroxide.instanceId, quantity: '2' }, { instance_id: s.acetone.instanceId }],
    });
    expect(beside.statusCode, beside.body).toBe(200);
    expect(beside.json().segregation).toEqual([
      expect.objectContaining({
        incoming_item_name: expect.stringMatching(/^Acetone/),
        instance_id: s.peroxide.instanceId,
        message: expect.stringMatching(/^Acetone \d+ \(flammables\) beside Hydrogen peroxide 30 % \d+ \(oxidizers\)/),
      }),
    ]);
    // Only the peroxide, at its own place: nothing.
    const alone = await preflight(h, h.a.admin.token, {
      location_id: s.shelfId,
      instances: [{ instance_id: s.peroxide.instanceId, quantity: '2' }],
    });
    expect(alone.json().segregation).toEqual([]);
  });

  it('adding near the limit: the preflight gives the figures, the add goes ahead, the meter shows the area over', async () => {
    const s = await scenario(h);
    const check = await preflight(h, h.a.admin.token, { location_id: s.cabinetId, items: [{ item_id: s.acetone.itemId, quantity: '2' }] });
    expect(check.statusCode, check.body).toBe(200);
    const limits = check.json().limits;
    expect(limits).toHaveLength(1);
    expect(limits[0]).toMatchObject({ category: 'flammable-liquid-ib-ic', current: '4', adding: '2', limit: '5', over_by: '1', unit: 'L' });
    expect(limits[0].message).toMatch(
      /^Flammable liquids IB and IC in Solvent cabinet \d+: 4 L of 5 L; this adds 2 L, 1 L over the limit$/,
    );

    const fits = await preflight(h, h.a.admin.token, { location_id: s.cabinetId, items: [{ item_id: s.acetone.itemId, quantity: '1' }] });
    expect(fits.json().limits).toEqual([]);

    const added = await addInstance(h, s.acetone.itemId, s.cabinetId, '2');
    expect(added.statusCode, added.body).toBe(201);
    const meter = await h.call(h.a.admin.token, { method: 'GET', url: `/locations/${s.cabinetId}/control-area/meter` });
    expect(meter.statusCode, meter.body).toBe(200);
    const line = meter.json().lines.find((l: { category: string }) => l.category === 'flammable-liquid-ib-ic');
    expect(line).toMatchObject({
      amount: '6',
      limit: '5',
      over: true,
      unit: 'L',
      unknown_containers: 0,
      unknown_items: [],
      unknown_items_count: 0,
    });
    // The IFC's combined IA/IB/IC limit (120 gal = 454.249 L) counts it too, far from full.
    const combined = meter.json().lines.find((l: { category: string }) => l.category === 'flammable-liquid-combined');
    expect(combined).toMatchObject({ amount: '6', limit: '454.249', over: false });
  });

  it('a tray in a cabinet in a store room, both marked: the preflight counts the addition in each area it falls in', async () => {
    const s = await scenario(h);
    const loc = async (name: string, parentId: string) => {
      const res = await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/locations',
        payload: { lab_id: s.labId, parent_id: parentId, name },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const room = await loc(`Store room ${s.cabinetId.slice(-6)}`, h.a.migratedLab.locationIds[0]!);
    const cabinet = await loc('Inner cabinet', room);
    const tray = await loc('Tray', cabinet);
    const mark = async (id: string, limit: string) => {
      const res = await h.call(h.a.admin.token, {
        method: 'PUT',
        url: `/locations/${id}/control-area`,
        payload: { sprinklered: false, cabinets: false, limits: [{ category: 'flammable-liquid-ib-ic', state: 'liquid', limit }] },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await mark(room, '2.5');
    await mark(cabinet, '2');
    const item = await createItem(
      h.deps,
      h.a.admin.actor,
      { labId: s.labId, name: 'Ethyl acetate', typeId: h.a.migratedLab.typeId, unitSize: '1 L' },
      [{ quantity: '1', locationId: tray }],
    );
    await setHazardsIn(
      h.deps.db,
      { kind: 'item', id: item.id },
      { userId: h.a.admin.id, now: new Date().toISOString(), labId: s.labId, codes: ['H225'] },
    );
    const into = async (locationId: string) => {
      const res = await preflight(h, h.a.admin.token, { location_id: locationId, items: [{ item_id: item.id, quantity: '2' }] });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().limits as { control_area_id: string; current: string; over_by: string; message: string }[])
        .map((f) => ({
          area: f.control_area_id,
          current: f.current,
          over_by: f.over_by,
          named: f.message.includes(' in Store room') || f.message.includes(' in Inner cabinet'),
        }))
        .sort((a, b) => a.area.localeCompare(b.area));
    };
    const both = [
      { area: room, current: '1', over_by: '0.5', named: true },
      { area: cabinet, current: '1', over_by: '1', named: true },
    ].sort((a, b) => a.area.localeCompare(b.area));
    expect(await into(tray)).toEqual(both);
    expect(await into(cabinet)).toEqual(both);
    expect(await into(room)).toEqual([{ area: room, current: '1', over_by: '0.5', named: true }]);
  });

  it('a move within the control area adds nothing to it; a move out and back in counts the bottle', async () => {
    const s = await scenario(h);
    const within = await preflight(h, h.a.admin.token, {
      location_id: s.cabinetId,
      instances: [{ instance_id: s.acetone.instanceId, quantity: '5' }],
    });
    expect(within.json().limits).toEqual([]);
    const more = await preflight(h, h.a.admin.token, {
      location_id: s.cabinetId,
      instances: [{ instance_id: s.acetone.instanceId, quantity: '7' }],
    });
    expect(more.json().limits[0]).toMatchObject({ current: '4', adding: '3', over_by: '2' });
    expect(await activeCount(h, s.acetone.itemId)).toBe(1);
  });

  it('a container whose unit size is not understood is listed as amount unknown, never guessed', async () => {
    const s = await scenario(h);
    const edited = await h.call(h.a.admin.token, {
      method: 'PATCH',
      url: `/inventory-items/${s.acetone.itemId}`,
      payload: { unit_size: 'one big jug' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const meter = await h.call(h.a.admin.token, { method: 'GET', url: `/locations/${s.cabinetId}/control-area/meter` });
    const line = meter.json().lines.find((l: { category: string }) => l.category === 'flammable-liquid-ib-ic');
    expect(line.amount).toBe('0');
    expect(line).toMatchObject({ unknown_containers: 1, unknown_items_count: 1 });
    expect(line.unknown_items).toEqual([{ item_id: s.acetone.itemId, item_name: expect.stringMatching(/^Acetone/), containers: 1 }]);
    const check = await preflight(h, h.a.admin.token, { location_id: s.cabinetId, items: [{ item_id: s.acetone.itemId, quantity: '9' }] });
    expect(check.json().limits).toEqual([]);
    expect(check.json().unknown_amounts).toEqual([{ item_id: s.acetone.itemId, item_name: expect.stringMatching(/^Acetone/) }]);
  });

  it('the meter names the first ten items of unknown amount by name, all of them on asking, and counts every container', async () => {
    const s = await scenario(h);
    const at = { userId: h.a.admin.id, now: new Date().toISOString(), labId: s.labId };
    // Twelve items sized in boxes (a count, no volume), three containers each, two sets of statements.
    const names = Array.from({ length: 12 }, (_, i) => `Resin kit ${String.fromCharCode(76 - i)} ${s.labId.slice(0, 4)}`);
    for (const [i, name] of names.entries()) {
      const item = await createItem(h.deps, h.a.admin.actor, { labId: s.labId, name, typeId: h.a.migratedLab.typeId, unitSize: '1 box' }, [
        { quantity: '1', locationId: s.cabinetId },
        { quantity: '2', locationId: s.cabinetId },
        { quantity: '1', locationId: s.cabinetId },
      ]);
      await setHazardsIn(h.deps.db, { kind: 'item', id: item.id }, { ...at, codes: i % 2 ? ['H225'] : ['H225', 'H319'] });
    }
    const get = async (query = '') => {
      const res = await h.call(h.a.admin.token, { method: 'GET', url: `/locations/${s.cabinetId}/control-area/meter${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().lines.find((l: { category: string }) => l.category === 'flammable-liquid-ib-ic');
    };
    const sorted = [...names].sort((a, b) => a.localeCompare(b));
    const first = await get();
    expect(first).toMatchObject({ amount: '4', unknown_containers: 36, unknown_items_count: 12 });
    expect(first.unknown_items.map((u: { item_name: string }) => u.item_name)).toEqual(sorted.slice(0, 10));
    expect(first.unknown_items[0].containers).toBe(3);
    const all = await get('?unknown_limit=1000');
    expect(all).toMatchObject({ unknown_containers: 36, unknown_items_count: 12 });
    expect(all.unknown_items.map((u: { item_name: string }) => u.item_name)).toEqual(sorted);
    const none = await get('?unknown_limit=0');
    expect(none).toMatchObject({ amount: '4', unknown_containers: 36, unknown_items: [], unknown_items_count: 12 });
  });

  it('approving a request for a product kept in the area: the check gives the figures and the approval goes ahead', async () => {
    const s = await scenario(h);
    const created = await h.call(h.a.member.token, {
      method: 'POST',
      url: '/order-requests',
      payload: {
        lab_id: s.labId,
        type_id: h.a.migratedLab.typeId,
        name: 'Acetone, 1 L',
        vendor_name: s.vendor,
        catalog_number: (
          await h.deps.db
            .selectFrom('inventory_items')
            .select('catalog_number')
            .where('id', '=', s.acetone.itemId)
            .executeTakeFirstOrThrow()
        ).catalog_number!,
        price: { amount: '1000', currency: 'USD' },
        quantity: 3,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    const check = await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${id}/placement-check` });
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json().limits[0]).toMatchObject({ control_area_id: s.cabinetId, current: '4', adding: '3', limit: '5', over_by: '2' });
    const approved = await h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${id}`, payload: { status: 'APPROVED' } });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe('APPROVED');
  });
});
