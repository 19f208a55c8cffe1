// PATCH /locations/{id} {name?, parent_id?}: renames and moves; the items stored below are announced again with
// their new paths (inventory-item.updated).
import { describe, expect, it } from 'vitest';
import { locationFixture } from '../../helpers/locations.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();
const { admin, create, chain } = locationFixture(h);

const eventsOf = async (type: string) =>
  (await h.deps.db.selectFrom('events').select(['payload']).where('type', '=', type).execute()).map((e) => JSON.parse(e.payload));

describe('PATCH /locations/{id} (happy)', () => {
  it('renaming a location re-announces the items stored below it with their new paths', async () => {
    const freezer = h.a.migratedLab.locationIds[1];
    const before = (await eventsOf('com.labstock.inventory-item.updated')).length;
    const r = await h.call(admin(), { method: 'PATCH', url: `/locations/${freezer}`, payload: { name: 'Freezer B' } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().pathNames).toEqual(['Room 101', 'Freezer B']);
    const item = (await h.call(admin(), { method: 'GET', url: `/inventory-items/${h.a.migratedLab.itemId}` })).json();
    expect(item.instances[0].location).toEqual({ name: 'Shelf 2', pathNames: ['Room 101', 'Freezer B', 'Shelf 2'] });
    const events = await eventsOf('com.labstock.inventory-item.updated');
    expect(events.length).toBe(before + 1);
    expect(events.at(-1).data.inventory_item).toEqual(item);
  });

  it('moves a subtree and keeps sibling names unique', async () => {
    const [, a2] = await chain('M', 2);
    const [b1] = await chain('N', 1);
    const moved = await h.call(admin(), { method: 'PATCH', url: `/locations/${a2}`, payload: { parent_id: b1 } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().pathNames).toEqual(['N1', 'M2']);
    await create('Same', b1!);
    const clash = await create('Same', b1!);
    expect(clash.statusCode).toBe(409);
  });

  it('parent_id null moves a location to the root; the same name and parent change nothing and announce nothing', async () => {
    const [, child] = await chain('R', 2);
    const root = await h.call(admin(), { method: 'PATCH', url: `/locations/${child}`, payload: { parent_id: null } });
    expect(root.statusCode, root.body).toBe(200);
    expect(root.json()).toEqual({ id: child, name: 'R2', parent_id: null, pathNames: ['R2'] });
    // The shelf, as the list shows it now (a test above renamed its parent), sent back unchanged.
    const shelf = h.a.migratedLab.locationIds[2]!;
    const listed = (await h.call(admin(), { method: 'GET', url: `/labs/${h.a.migratedLab.id}/locations` }))
      .json()
      .find((l: any) => l.id === shelf);
    const before = (await eventsOf('com.labstock.inventory-item.updated')).length;
    const same = await h.call(admin(), {
      method: 'PATCH',
      url: `/locations/${shelf}`,
      payload: { name: listed.name, parent_id: listed.parent_id },
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toEqual(listed);
    expect(await eventsOf('com.labstock.inventory-item.updated')).toHaveLength(before);
  });

  it('a member renames a location of their lab', async () => {
    const [x] = await chain('Member ', 1);
    const res = await h.call(h.a.member.token, { method: 'PATCH', url: `/locations/${x}`, payload: { name: 'Renamed by member' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().name).toBe('Renamed by member');
  });
});
