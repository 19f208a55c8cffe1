import { describe, expect, it } from 'vitest';
import { areasAmong } from '../../../src/hazards/control-area.js';
import { rebuildHoldings, trackHoldings } from '../../../src/hazards/holdings-repository.js';
import { setHazardsIn } from '../../../src/hazards/repository.js';
import { areaHoldings } from '../../../src/inventory/area-holdings.js';
import { createItem } from '../../../src/inventory/items.js';
import { setInstanceQuantity } from '../../../src/inventory/repository.js';
import { useHarness } from '../../helpers/use-harness.js';
import { scenario } from '../placement/_placement.js';

// The meter and the limit check remember what an area held, under the area's (rows, sum of versions) pair
// (src/inventory/area-holdings.ts, migration 0045). holdings.consistency.test.ts asks the meter after every kind of
// write; these are the changes that leave the sums alone or that a careless memory would keep.

const h = useHarness();

const meter = async (cabinetId: string) => {
  const res = await h.call(h.a.admin.token, { method: 'GET', url: `/locations/${cabinetId}/control-area/meter` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().lines.find((l: { category: string }) => l.category === 'flammable-liquid-ib-ic') as
    | { amount: string; unknown_items: { item_name: string; containers: number }[] }
    | undefined;
};

describe('what the meter remembers', () => {
  it('names an item by its new name once renamed', async () => {
    const s = await scenario(h);
    const patch = (payload: object) => h.call(h.a.admin.token, { method: 'PATCH', url: `/inventory-items/${s.acetone.itemId}`, payload });
    expect((await patch({ unit_size: 'one big jug' })).statusCode).toBe(200);
    const before = await meter(s.cabinetId);
    expect(before?.unknown_items.map((i) => i.item_name)).toEqual([expect.stringMatching(/^Acetone \d+$/)]);
    expect((await patch({ name: 'Propanone, the big jug' })).statusCode).toBe(200);
    expect((await meter(s.cabinetId))?.unknown_items).toEqual([
      expect.objectContaining({ item_name: 'Propanone, the big jug', containers: 1 }),
    ]);
  });

  it("names the other item when one item's container leaves a holding as another's arrives, the sums unchanged", async () => {
    const s = await scenario(h);
    const jug = { typeId: h.a.migratedLab.typeId, unitSize: 'one big jug' };
    const a = await createItem(h.deps, h.a.admin.actor, { labId: s.labId, name: 'Jugged solvent A', ...jug }, [
      { quantity: '1', locationId: s.cabinetId },
    ]);
    const b = await createItem(h.deps, h.a.admin.actor, { labId: s.labId, name: 'Jugged solvent B', ...jug }, [
      { quantity: '1', locationId: s.shelfId },
    ]);
    const at = { userId: h.a.admin.id, now: new Date().toISOString(), labId: s.labId };
    for (const item of [a, b]) await setHazardsIn(h.deps.db, { kind: 'item', id: item.id }, { ...at, codes: ['H225'] });
    expect((await meter(s.cabinetId))?.unknown_items.map((i) => i.item_name)).toEqual(['Jugged solvent A']);
    // One transaction: A's jug out to the shelf, B's in (same unit size, same statements: the totals do not move).
    const ids = [a.instances[0]!.id, b.instances[0]!.id];
    await h.deps.db.transaction().execute((trx) =>
      trackHoldings(trx, { instanceIds: ids }, async () => {
        await trx.updateTable('inventory_item_instances').set({ location_id: s.shelfId }).where('id', '=', ids[0]!).execute();
        await trx.updateTable('inventory_item_instances').set({ location_id: s.cabinetId }).where('id', '=', ids[1]!).execute();
      }),
    );
    expect((await meter(s.cabinetId))?.unknown_items.map((i) => i.item_name)).toEqual(['Jugged solvent B']);
  });

  it('keeps nothing a rolled-back transaction read, though a later commit reaches the same pair', async () => {
    const s = await scenario(h);
    expect((await meter(s.cabinetId))?.amount).toBe('4');
    const [area] = await areasAmong(h.deps.db, [s.cabinetId]);
    const rolledBack = new Error('rolled back on purpose');
    await expect(
      h.deps.db.transaction().execute(async (trx) => {
        await setInstanceQuantity(trx, s.acetone.instanceId, '1', new Date().toISOString());
        const inside = await areaHoldings(trx, s.cabinetId, area!.limits, false);
        expect(inside.contributions.map((c) => c.amount?.value)).toEqual(['1']);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect((await meter(s.cabinetId))?.amount).toBe('4');
    // One write of the same row: the same (rows, versions) pair the rolled-back transaction saw, other contents.
    const put = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${s.acetone.itemId}/instances/${s.acetone.instanceId}`,
      payload: { quantity: '2' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const after = await areaHoldings(h.deps.db, s.cabinetId, area!.limits, false);
    expect(after.contributions.map((c) => c.amount?.value)).toEqual(['2']);
    expect((await meter(s.cabinetId))?.amount).toBe('2');
  });

  it("a change in some of the area's locations moves the remembered sums by the difference: always what a fresh sum gives", async () => {
    const s = await scenario(h);
    const child = async (name: string) => {
      const res = await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/locations',
        payload: { lab_id: s.labId, parent_id: s.cabinetId, name },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const [left, right] = [await child('Left tray'), await child('Right tray')];
    const at = { userId: h.a.admin.id, now: new Date().toISOString(), labId: s.labId };
    const flammable = async (name: string, unitSize: string, where: { quantity: string; locationId: string }[]) => {
      const item = await createItem(h.deps, h.a.admin.actor, { labId: s.labId, name, typeId: h.a.migratedLab.typeId, unitSize }, where);
      await setHazardsIn(h.deps.db, { kind: 'item', id: item.id }, { ...at, codes: ['H225'] });
      return item;
    };
    const ethanol = await flammable('Ethanol', '2.5 L', [
      { quantity: '2', locationId: left },
      { quantity: '3', locationId: right },
    ]);
    const jug = await flammable('Jugged solvent', 'one big jug', [{ quantity: '1', locationId: left }]);
    const [area] = await areasAmong(h.deps.db, [s.cabinetId]);
    // The oracle: the same limits as another object, which nothing remembers, so the area is summed afresh.
    const fresh = async (listUnknown: boolean) => areaHoldings(h.deps.db, s.cabinetId, structuredClone(area!.limits), listUnknown);
    const shape = (r: Awaited<ReturnType<typeof areaHoldings>>) =>
      r.contributions
        .map((c) => ({
          amount: c.amount,
          containers: c.containers,
          classes: c.classes.map((x) => x.id),
          items: ((c as { items?: { item_name: string; containers: number }[] }).items ?? [])
            .map((i) => `${i.item_name} x${i.containers}`)
            .sort(),
        }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const agree = async (what: string) => {
      for (const listUnknown of [false, true]) {
        const kept = await areaHoldings(h.deps.db, s.cabinetId, area!.limits, listUnknown);
        expect(shape(kept), `${what} (${listUnknown ? 'meter' : 'check'})`).toEqual(shape(await fresh(listUnknown)));
      }
    };
    const edit = async (itemId: string, instanceId: string, payload: object) => {
      const res = await h.call(h.a.admin.token, { method: 'PATCH', url: `/inventory-items/${itemId}/instances/${instanceId}`, payload });
      expect(res.statusCode, res.body).toBe(200);
    };
    await agree('first read');
    const [inLeft, inRight] = ethanol.instances;
    await edit(ethanol.id, inLeft!.id, { quantity: '1.5' });
    await agree('a quantity in one tray');
    await edit(ethanol.id, inLeft!.id, { location_id: right });
    await agree('a container from one tray to the other');
    await edit(ethanol.id, inRight!.id, { location_id: s.shelfId });
    await agree('a container out of the area');
    const small = await flammable('Ethanol, small', '250 mL', [{ quantity: '4', locationId: right }]);
    await agree('a new size in a tray');
    await edit(small.id, small.instances[0]!.id, { quantity: '0' });
    await agree('that size down to nothing');
    await flammable('Another jug', 'one big jug', [{ quantity: '2', locationId: right }]);
    await agree('a second item of unknown amount, in the other tray');
    const renamed = await h.call(h.a.admin.token, {
      method: 'PATCH',
      url: `/inventory-items/${jug.id}`,
      payload: { name: 'Jugged solvent, renamed' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await agree('an item of unknown amount renamed');
    // The named items' counts over the area move by what changed too: one item's containers in two trays.
    const second = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/inventory-items/${jug.id}/instances`,
      payload: { quantity: '1', location_id: right },
    });
    expect(second.statusCode, second.body).toBe(201);
    await agree('a second container of that item, in the other tray');
    await edit(jug.id, jug.instances[0]!.id, { location_id: right });
    await agree('its first container moved to the other tray');
    // The answer is the item with its containers (the contract's shape): the new one is the other.
    const secondId = (second.json().instances as { id: string }[]).find((i) => i.id !== jug.instances[0]!.id)!.id;
    await edit(jug.id, secondId, { location_id: s.shelfId });
    await agree('one of its two containers out of the area');
    await flammable('Drummed solvent', 'one drum', [{ quantity: '1', locationId: s.cabinetId }]);
    await agree('another unit of unknown amount (another group named item by item)');
    // A shelf moved into the area with what it holds, then out again: other locations, read afresh.
    const loose = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/locations',
      payload: { lab_id: s.labId, parent_id: h.a.migratedLab.locationIds[0], name: 'Loose shelf' },
    });
    expect(loose.statusCode, loose.body).toBe(201);
    await flammable('Loose ethanol', '1 L', [{ quantity: '3', locationId: loose.json().id }]);
    await agree('before the shelf moves');
    for (const [parent, what] of [
      [s.cabinetId, 'a shelf moved into the area'],
      [h.a.migratedLab.locationIds[0], 'the shelf moved out again'],
    ] as const) {
      const moved = await h.call(h.a.admin.token, {
        method: 'PATCH',
        url: `/locations/${loose.json().id}`,
        payload: { parent_id: parent },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      await agree(what);
    }
    const meterLine = await meter(s.cabinetId);
    expect(meterLine?.unknown_items.map((i) => i.item_name).sort()).toEqual(['Another jug', 'Drummed solvent', 'Jugged solvent, renamed']);
  });

  it('sees a rebuild, which keeps the sums and moves the versions on', async () => {
    const s = await scenario(h);
    expect((await meter(s.cabinetId))?.amount).toBe('4');
    // What a bulk load does behind the server's back: a container's quantity written without the running totals.
    await h.deps.db.updateTable('inventory_item_instances').set({ quantity: '3' }).where('id', '=', s.acetone.instanceId).execute();
    expect((await meter(s.cabinetId))?.amount).toBe('4');
    await h.deps.db.transaction().execute((trx) => rebuildHoldings(trx));
    expect((await meter(s.cabinetId))?.amount).toBe('3');
  });
});
