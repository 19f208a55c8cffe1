import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocation } from '../../../src/locations/service.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const admin = () => h.a.admin.token;
const create = (name: string, parent_id: string | null = null, lab_id = h.a.migratedLab.id, token = admin()) =>
  h.call(token, { method: 'POST', url: '/locations', payload: { lab_id, parent_id, name } });
const eventsOf = async (type: string) =>
  (await h.deps.db.selectFrom('events').select(['payload']).where('type', '=', type).execute()).map((e) => JSON.parse(e.payload));

/** A chain of `n` nested locations under `parent`, returning their ids root first. */
async function chain(prefix: string, n: number, parent: string | null = null): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await create(`${prefix}${i + 1}`, ids.at(-1) ?? parent);
    expect(r.statusCode, r.body).toBe(201);
    ids.push(r.json().id);
  }
  return ids;
}

describe('happy', () => {
  it("creates locations with their paths and lists the lab's tree", async () => {
    const ids = await chain('L', 3);
    const list = await h.call(admin(), { method: 'GET', url: `/labs/${h.a.migratedLab.id}/locations` });
    expect(list.statusCode).toBe(200);
    const leaf = list.json().find((l: any) => l.id === ids[2]);
    expect(leaf).toEqual({ id: ids[2], name: 'L3', parent_id: ids[1], pathNames: ['L1', 'L2', 'L3'] });
  });

  it('allows exactly seven levels', async () => {
    const ids = await chain('D', 7);
    expect(ids).toHaveLength(7);
    const eighth = await create('D8', ids[6]!);
    expect(eighth.statusCode).toBe(409);
  });

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

  it('deletes an empty location', async () => {
    const [x] = await chain('E', 1);
    const r = await h.call(admin(), { method: 'DELETE', url: `/locations/${x}` });
    expect(r.statusCode).toBe(204);
    expect(await h.deps.db.selectFrom('locations').select('id').where('id', '=', x!).executeTakeFirst()).toBeUndefined();
  });
});

describe('errors', () => {
  it('refuses a move under its own descendant (a cycle), changing nothing', async () => {
    const ids = await chain('C', 3);
    const r = await h.call(admin(), { method: 'PATCH', url: `/locations/${ids[0]}`, payload: { parent_id: ids[2] } });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toMatch(/under itself/);
    const row = await h.deps.db.selectFrom('locations').select('parent_id').where('id', '=', ids[0]!).executeTakeFirstOrThrow();
    expect(row.parent_id).toBeNull();
    const self = await h.call(admin(), { method: 'PATCH', url: `/locations/${ids[0]}`, payload: { parent_id: ids[0] } });
    expect(self.statusCode).toBe(409);
  });

  it("counts the moved subtree's height against the seven levels", async () => {
    const deep = await chain('P', 4); // P1..P4, depth 4
    const sub = await chain('Q', 4); // Q1..Q4, height 4
    const tooDeep = await h.call(admin(), { method: 'PATCH', url: `/locations/${sub[0]}`, payload: { parent_id: deep[3] } });
    expect(tooDeep.statusCode).toBe(409);
    expect(tooDeep.json().message).toMatch(/8 levels/);
    const fits = await h.call(admin(), { method: 'PATCH', url: `/locations/${sub[1]}`, payload: { parent_id: deep[3] } });
    expect(fits.statusCode, fits.body).toBe(200);
    expect(fits.json().pathNames).toEqual(['P1', 'P2', 'P3', 'P4', 'Q2']);
  });

  it('refuses to delete a location with sub-locations or stored instances', async () => {
    const [room, , shelf] = h.a.migratedLab.locationIds;
    expect((await h.call(admin(), { method: 'DELETE', url: `/locations/${room}` })).statusCode).toBe(409);
    expect((await h.call(admin(), { method: 'DELETE', url: `/locations/${shelf}` })).statusCode).toBe(409);
  });

  it('keeps the legacy-lab rule for seeding code, which calls the service as the org admin', async () => {
    await expect(createLocation(h.deps.db, h.a.admin.actor, { labId: h.a.legacyLab.id, parentId: null, name: 'Seeded' })).rejects.toThrow(
      /labs that use instances/,
    );
    await expect(
      createLocation(h.deps.db, h.a.admin.actor, { labId: '00000000-0000-7000-8000-000000000000', parentId: null, name: 'Nowhere' }),
    ).rejects.toThrow(/lab not found/);
  });

  it('has no tree in a legacy lab, and validates names and fields', async () => {
    expect((await create('X', null, h.a.legacyLab.id)).statusCode).toBe(409);
    expect((await create('')).statusCode).toBe(422);
    const extra = await h.call(admin(), {
      method: 'POST',
      url: '/locations',
      payload: { lab_id: h.a.migratedLab.id, name: 'X', color: 'red' },
    });
    expect(extra.statusCode).toBe(422);
    expect(extra.json().errors[0].field).toBe('color');
    expect((await h.call(admin(), { method: 'PATCH', url: '/locations/not-a-uuid', payload: {} })).statusCode).toBe(422);
  });
});

describe('security', () => {
  it("gives 404 for another organization's lab, location or parent, and changes nothing", async () => {
    const [bRoom] = h.b.migratedLab.locationIds;
    expect((await h.call(admin(), { method: 'GET', url: `/labs/${h.b.migratedLab.id}/locations` })).statusCode).toBe(404);
    expect((await create('X', null, h.b.migratedLab.id)).statusCode).toBe(404);
    expect((await create('X', bRoom!)).statusCode).toBe(404);
    expect((await h.call(admin(), { method: 'PATCH', url: `/locations/${bRoom}`, payload: { name: 'Hacked' } })).statusCode).toBe(404);
    expect((await h.call(admin(), { method: 'DELETE', url: `/locations/${bRoom}` })).statusCode).toBe(404);
    const row = await h.deps.db.selectFrom('locations').select('name').where('id', '=', bRoom!).executeTakeFirstOrThrow();
    expect(row.name).toBe('Room 101');
  });

  it('lets a member work only in their labs, and needs a token', async () => {
    expect((await h.call(h.a.outsider.token, { method: 'GET', url: `/labs/${h.a.migratedLab.id}/locations` })).statusCode).toBe(404);
    expect((await create('Y', null, h.a.migratedLab.id, h.a.member.token)).statusCode).toBe(201);
    expect((await h.call(null, { method: 'GET', url: `/labs/${h.a.migratedLab.id}/locations` })).statusCode).toBe(401);
  });
});
