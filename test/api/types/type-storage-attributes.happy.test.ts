// GET/PUT /types/{id}/storage-attributes (docs/safety.md "Segregation"): a type's acid or base and aqueous, which
// every item of the type without its own has; the item's own override them; segregation reads them. Both databases.
import { describe, expect, it } from 'vitest';
import { createItem } from '../../../src/inventory/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { hazardousType } from '../placement/_types.js';
import { typeStorage } from './_storage.js';

const h = useHarness();
const f = typeStorage(h);

describe('type storage attributes', () => {
  it('none until set; a manager sets them, anyone who sees the type reads them', async () => {
    const typeId = h.a.legacyLab.typeId;
    const before = await f.get(h.a.member.token, typeId);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toEqual({ corrosive: null, aqueous: false });
    const set = await f.put(h.a.admin.token, typeId, { corrosive: 'acid', aqueous: true });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ corrosive: 'acid', aqueous: true });
    expect((await f.get(h.a.member.token, typeId)).json()).toEqual({ corrosive: 'acid', aqueous: true });
    // Setting them again replaces them.
    expect((await f.put(h.a.admin.token, typeId, { corrosive: null, aqueous: false })).json()).toEqual({ corrosive: null, aqueous: false });
  });

  it("an item of the type has them until it has its own; the segregation report sees the type's acid beside a base", async () => {
    const lab = h.a.migratedLab;
    const acids = await hazardousType(h, lab.id, 'Acids', ['H314']);
    const bases = await hazardousType(h, lab.id, 'Bases', ['H314']);
    expect((await f.put(h.a.admin.token, acids, { corrosive: 'acid', aqueous: true })).statusCode).toBe(200);
    expect((await f.put(h.a.admin.token, bases, { corrosive: 'base', aqueous: true })).statusCode).toBe(200);
    const shelf = lab.locationIds[0]!;
    const acid = await createItem(
      h.deps,
      h.a.admin.actor,
      { labId: lab.id, name: 'Hydrochloric acid 1 M', typeId: acids, unitSize: '1 L' },
      [{ quantity: '1', locationId: shelf }],
    );
    await createItem(h.deps, h.a.admin.actor, { labId: lab.id, name: 'Sodium hydroxide 1 M', typeId: bases, unitSize: '1 L' }, [
      { quantity: '1', locationId: shelf },
    ]);
    const inherited = await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items/${acid.id}/storage-attributes` });
    expect(inherited.json()).toEqual({ corrosive: 'acid', aqueous: true });
    const report = await h.call(h.a.admin.token, { method: 'GET', url: `/locations/${shelf}/segregation-conflicts` });
    const pair = report.json().conflicts.find((c: any) => [c.a.item_name, c.b.item_name].includes('Hydrochloric acid 1 M'));
    expect(pair).toBeDefined();
    expect([pair.a.group, pair.b.group].sort()).toEqual(['acid', 'base']);
    // The item's own override the type's: marked neither, the pair is gone.
    const own = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${acid.id}/storage-attributes`,
      payload: { corrosive: null, aqueous: true },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect((await f.get(h.a.member.token, acids)).json()).toEqual({ corrosive: 'acid', aqueous: true });
    const after = await h.call(h.a.admin.token, { method: 'GET', url: `/locations/${shelf}/segregation-conflicts` });
    expect(after.json().conflicts.filter((c: any) => [c.a.item_name, c.b.item_name].includes('Hydrochloric acid 1 M'))).toEqual([]);
  });
});
