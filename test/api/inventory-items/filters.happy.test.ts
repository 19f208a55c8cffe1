// GET /inventory-items filters (docs/product.md §12): type_id, location_id (that location and everything below it),
// expiring_before (an active instance's or the legacy expiry, strictly before), below_minimum=true; each alone,
// combined with one another, with q and lab_id; each following the changes that move an item in or out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstance } from '../../../src/inventory/instances.js';
import { createLocation } from '../../../src/locations/service.js';
import { createType } from '../../../src/types/service.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { addItem } from './_helpers.js';
import { listItems, namesFor } from './_search.js';

let h: Harness;
let token: string;
const ids: Record<string, string> = {};
const loc: Record<string, string> = {};
const inst: Record<string, string> = {};
let bufferType: string;
let saltType: string;

const call = async (method: 'PUT' | 'PATCH' | 'POST', url: string, payload?: object) => {
  const res = await h.call(token, { method, url, ...(payload ? { payload } : {}) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json();
};
const setMinimum = (name: string, minimum: string | null) =>
  call('PUT', `/inventory-items/${ids[name]}/minimum-quantity`, { minimum_quantity: minimum });

beforeAll(async () => {
  h = await startHarness();
  token = h.a.admin.token;
  const a = h.a;
  const [room, freezer, shelf] = a.migratedLab.locationIds as [string, string, string];
  Object.assign(loc, { room, freezer, shelf });
  loc.box = (await createLocation(h.deps.db, h.a.admin.actor, { labId: a.migratedLab.id, parentId: shelf, name: 'Box 7' })).id;
  loc.cold = (await createLocation(h.deps.db, h.a.admin.actor, { labId: a.migratedLab.id, parentId: room, name: 'Cold room' })).id;
  loc.annex = (await createLocation(h.deps.db, h.a.admin.actor, { labId: a.migratedLab.id, parentId: null, name: 'Annex' })).id;
  bufferType = (await createType(h.deps, h.a.admin.actor, { labId: a.migratedLab.id, name: 'Buffer' })).id;
  saltType = (await createType(h.deps, h.a.admin.actor, { labId: a.legacyLab.id, name: 'Salt' })).id;
  ids['Ethanol A'] = a.legacyLab.itemId;
  ids['Anti-GFP A'] = a.migratedLab.itemId;
  inst.antiGfp = a.migratedLab.instanceIds[0]!;

  const m = a.migratedLab.id;
  const p = await addItem(h, a.admin.actor, { labId: m, name: 'Buffer P', typeId: bufferType }, [
    { quantity: '5', locationId: freezer, expirationDate: '2026-12-15' },
  ]);
  ids['Buffer P'] = p.id;
  const q = await addItem(h, a.admin.actor, { labId: m, name: 'Buffer Q', typeId: bufferType }, [
    { quantity: '1', locationId: loc.box },
    { quantity: '2', locationId: loc.cold, expirationDate: '2028-01-01' },
  ]);
  ids['Buffer Q'] = q.id;
  inst.bufferQCold = q.instances[1]!.id;
  const gel = await addItem(h, a.admin.actor, { labId: m, name: 'Gel', typeId: a.migratedLab.typeId }, [
    { quantity: '4', expirationDate: '2026-11-30' },
  ]);
  ids.Gel = gel.id;
  inst.gel = gel.instances[0]!.id;
  const gone = await addItem(h, a.admin.actor, { labId: m, name: 'Moved out', typeId: bufferType }, [
    { quantity: '1', locationId: loc.cold, expirationDate: '2026-01-01' },
  ]);
  ids['Moved out'] = gone.id;
  inst.gone = gone.instances[0]!.id;
  ids['Salt A'] = (
    await addItem(h, a.admin.actor, {
      labId: a.legacyLab.id,
      name: 'Salt A',
      typeId: saltType,
      quantity: '10',
      expirationDate: '2026-12-31',
    })
  ).id;
  ids['Salt B'] = (await addItem(h, a.admin.actor, { labId: a.legacyLab.id, name: 'Salt B', typeId: saltType, quantity: '0' })).id;
  // The archived instance leaves "Moved out" without stock anywhere: in no location, expiring never.
  await call('POST', `/inventory-items/${ids['Moved out']}/instances/${inst.gone}/archive`);
});
afterAll(() => h?.close());

describe('type_id', () => {
  it("lists the type's items only, in any lab the token sees", async () => {
    expect(await namesFor(h, token, { type_id: bufferType })).toEqual(['Buffer P', 'Buffer Q', 'Moved out']);
    expect(await namesFor(h, token, { type_id: saltType })).toEqual(['Salt A', 'Salt B']);
    expect(await namesFor(h, token, { type_id: h.a.legacyLab.typeId })).toEqual(['Ethanol A']);
    expect(await namesFor(h, h.a.member.token, { type_id: saltType })).toEqual(['Salt A', 'Salt B']);
    expect(await namesFor(h, token, { type_id: saltType, lab_id: h.a.legacyLab.id })).toEqual(['Salt A', 'Salt B']);
    expect(await namesFor(h, token, { type_id: saltType, lab_id: h.a.migratedLab.id })).toEqual([]);
  });

  it('follows an item changing type', async () => {
    await call('PATCH', `/inventory-items/${ids.Gel}`, { type_id: bufferType });
    expect(await namesFor(h, token, { type_id: bufferType })).toEqual(['Buffer P', 'Buffer Q', 'Gel', 'Moved out']);
    await call('PATCH', `/inventory-items/${ids.Gel}`, { type_id: h.a.migratedLab.typeId });
    expect(await namesFor(h, token, { type_id: bufferType })).toEqual(['Buffer P', 'Buffer Q', 'Moved out']);
  });
});

describe('location_id', () => {
  it('lists items with an active instance at the location or anywhere below it, each once', async () => {
    expect(await namesFor(h, token, { location_id: loc.room! })).toEqual(['Anti-GFP A', 'Buffer P', 'Buffer Q']);
    expect(await namesFor(h, token, { location_id: loc.freezer! })).toEqual(['Anti-GFP A', 'Buffer P', 'Buffer Q']);
    expect(await namesFor(h, token, { location_id: loc.shelf! })).toEqual(['Anti-GFP A', 'Buffer Q']);
    expect(await namesFor(h, token, { location_id: loc.box! })).toEqual(['Buffer Q']);
    // "Moved out" had its only instance here, archived.
    expect(await namesFor(h, token, { location_id: loc.cold! })).toEqual(['Buffer Q']);
    expect(await namesFor(h, token, { location_id: loc.annex! })).toEqual([]);
    expect(await namesFor(h, token, { location_id: loc.room!, lab_id: h.a.legacyLab.id })).toEqual([]);
  });

  it('follows instances that move and locations that move', async () => {
    await call('PATCH', `/inventory-items/${ids['Buffer Q']}/instances/${inst.bufferQCold}`, { location_id: loc.annex });
    expect(await namesFor(h, token, { location_id: loc.annex! })).toEqual(['Buffer Q']);
    expect(await namesFor(h, token, { location_id: loc.cold! })).toEqual([]);
    // The shelf (with Box 7 below it) moves under the annex: its items follow it.
    await call('PATCH', `/locations/${loc.shelf}`, { parent_id: loc.annex });
    expect(await namesFor(h, token, { location_id: loc.annex! })).toEqual(['Anti-GFP A', 'Buffer Q']);
    expect(await namesFor(h, token, { location_id: loc.freezer! })).toEqual(['Buffer P']);
    await call('PATCH', `/locations/${loc.shelf}`, { parent_id: loc.freezer });
    await call('PATCH', `/inventory-items/${ids['Buffer Q']}/instances/${inst.bufferQCold}`, { location_id: loc.cold });
    expect(await namesFor(h, token, { location_id: loc.room! })).toEqual(['Anti-GFP A', 'Buffer P', 'Buffer Q']);
  });
});

describe('expiring_before', () => {
  it("compares the legacy expiry and active instances' expiries, strictly before the date", async () => {
    expect(await namesFor(h, token, { expiring_before: '2026-11-30' })).toEqual([]);
    expect(await namesFor(h, token, { expiring_before: '2026-12-01' })).toEqual(['Gel']);
    expect(await namesFor(h, token, { expiring_before: '2027-01-01' })).toEqual(['Buffer P', 'Gel', 'Salt A']);
    expect(await namesFor(h, token, { expiring_before: '2027-01-31' })).toEqual(['Buffer P', 'Gel', 'Salt A']);
    expect(await namesFor(h, token, { expiring_before: '2027-02-01' })).toEqual(['Ethanol A', 'Buffer P', 'Gel', 'Salt A']);
    // Buffer Q's soonest instance expires in 2028; its other instance never does.
    expect(await namesFor(h, token, { expiring_before: '2028-01-02' })).toEqual([
      'Ethanol A',
      'Anti-GFP A',
      'Buffer P',
      'Buffer Q',
      'Gel',
      'Salt A',
    ]);
    expect(await namesFor(h, token, { expiring_before: '9999-12-31' })).toHaveLength(6);
  });

  it('follows expiries edited, items edited and instances archived', async () => {
    await call('PATCH', `/inventory-items/${ids['Buffer Q']}/instances/${inst.bufferQCold}`, { expiration_date: '2026-06-01' });
    await call('PATCH', `/inventory-items/${ids['Salt B']}`, { expiration_date: '2026-05-01' });
    expect(await namesFor(h, token, { expiring_before: '2026-07-01' })).toEqual(['Buffer Q', 'Salt B']);
    await call('POST', `/inventory-items/${ids.Gel}/instances/${inst.gel}/archive`);
    expect(await namesFor(h, token, { expiring_before: '2026-12-01' })).toEqual(['Buffer Q', 'Salt B']);
    await call('PATCH', `/inventory-items/${ids['Salt B']}`, { expiration_date: null });
    await call('PATCH', `/inventory-items/${ids['Buffer Q']}/instances/${inst.bufferQCold}`, { expiration_date: '2028-01-01' });
    expect(await namesFor(h, token, { expiring_before: '2026-07-01' })).toEqual([]);
  });
});

describe('below_minimum', () => {
  it('lists items whose quantity is below their minimum (the sum of active instances in a migrated lab)', async () => {
    expect(await namesFor(h, token, { below_minimum: 'true' })).toEqual([]);
    await setMinimum('Salt A', '12'); // 10 < 12
    await setMinimum('Salt B', '0'); // 0 is not below 0
    await setMinimum('Anti-GFP A', '0.3'); // 0.1 + 0.2 is not below 0.3
    await setMinimum('Buffer P', '5.5'); // 5 < 5.5
    await setMinimum('Buffer Q', '2.5'); // 1 + 2 is not below 2.5
    expect(await namesFor(h, token, { below_minimum: 'true' })).toEqual(['Buffer P', 'Salt A']);
    expect((await listItems(h, token, { below_minimum: 'false' })).total).toBe((await listItems(h, token)).total);
  });

  it('follows every change of quantity and of the minimum', async () => {
    await call('POST', `/inventory-items/${ids['Salt A']}/adjustments`, { delta: '2' }); // 12: no longer below
    await call('PUT', `/inventory-items/${ids['Anti-GFP A']}/instances/${inst.antiGfp}`, { quantity: '0.05' }); // 0.25
    await call('PUT', `/inventory-items/${ids['Salt B']}`, { quantity: '0' });
    await setMinimum('Buffer P', null);
    expect(await namesFor(h, token, { below_minimum: 'true' })).toEqual(['Anti-GFP A']);
    const q = (await h.call(token, { method: 'GET', url: `/inventory-items/${ids['Buffer Q']}` })).json();
    await call('POST', `/inventory-items/${ids['Buffer Q']}/instances/${q.instances[1].id}/archive`); // 1 < 2.5
    await call('POST', `/inventory-items/${ids['Anti-GFP A']}/instances`, { quantity: '1' }); // 1.25
    await setMinimum('Salt B', '0.001');
    expect(await namesFor(h, token, { below_minimum: 'true' })).toEqual(['Buffer Q', 'Salt B']);
    await call('POST', `/inventory-items/${ids['Salt B']}/adjustments`, { delta: '0.001' });
    await addInstance(h.deps, h.a.admin.actor, ids['Buffer Q']!, { quantity: '1.5' });
    expect(await namesFor(h, token, { below_minimum: 'true' })).toEqual([]);
  });
});

describe('combined', () => {
  it('every filter with every other, with q, lab_id and a sort', async () => {
    await setMinimum('Buffer P', '6');
    const all = {
      lab_id: h.a.migratedLab.id,
      type_id: bufferType,
      location_id: loc.room!,
      expiring_before: '2027-01-01',
      below_minimum: 'true',
      q: 'buffer',
    };
    expect(await namesFor(h, token, all)).toEqual(['Buffer P']);
    expect(await namesFor(h, token, { ...all, sort: '-name' })).toEqual(['Buffer P']);
    // Leaving out one filter at a time, with what each then lets in.
    const without = async (key: keyof typeof all) => {
      const { [key]: _, ...rest } = all;
      return namesFor(h, token, rest);
    };
    expect(await without('below_minimum')).toEqual(['Buffer P']);
    expect(await without('expiring_before')).toEqual(['Buffer P']);
    expect(await namesFor(h, token, { type_id: bufferType, location_id: loc.room!, sort: 'name' })).toEqual(['Buffer P', 'Buffer Q']);
    expect(await namesFor(h, token, { type_id: bufferType, q: 'moved' })).toEqual(['Moved out']);
    expect(await namesFor(h, token, { type_id: saltType, q: 'buffer' })).toEqual([]);
    expect(await namesFor(h, token, { ...all, lab_id: h.a.legacyLab.id })).toEqual([]);
    expect(await namesFor(h, token, { type_id: saltType, expiring_before: '2027-01-01', lab_id: h.a.legacyLab.id })).toEqual(['Salt A']);
    expect(await namesFor(h, token, { type_id: saltType, expiring_before: '2027-01-01', below_minimum: 'true' })).toEqual([]);
  });
});
