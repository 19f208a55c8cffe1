// POST /locations {lab_id, parent_id?, name}: a location at the root or under a parent of a lab that uses
// instances; at most seven levels (src/locations/rules.ts).
import { describe, expect, it } from 'vitest';
import { locationFixture } from '../../helpers/locations.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();
const { admin, create, chain } = locationFixture(h);

describe('POST /locations (happy)', () => {
  it("creates locations with their paths and lists the lab's tree", async () => {
    const ids = await chain('L', 3);
    const list = await h.call(admin(), { method: 'GET', url: `/labs/${h.a.migratedLab.id}/locations` });
    expect(list.statusCode).toBe(200);
    const leaf = list.json().find((l: any) => l.id === ids[2]);
    expect(leaf).toEqual({ id: ids[2], name: 'L3', parent_id: ids[1], pathNames: ['L1', 'L2', 'L3'] });
  });

  it('201 with the location, its path and a Location header; parent_id may be left out for the root', async () => {
    const res = await h.call(admin(), {
      method: 'POST',
      url: '/locations',
      payload: { lab_id: h.a.migratedLab.id, name: '  Cold room  ' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toEqual({ id: body.id, name: 'Cold room', parent_id: null, pathNames: ['Cold room'] });
    expect(res.headers.location).toBe(`/locations/${body.id}`);
    const under = await create('Shelf 9', h.a.migratedLab.locationIds[1]!);
    expect(under.statusCode, under.body).toBe(201);
    expect(under.json().pathNames).toEqual(['Room 101', 'Freezer A', 'Shelf 9']);
  });

  it('allows exactly seven levels', async () => {
    const ids = await chain('D', 7);
    expect(ids).toHaveLength(7);
    const eighth = await create('D8', ids[6]!);
    expect(eighth.statusCode).toBe(409);
  });

  it('a member creates a location in a lab they belong to', async () => {
    expect((await create('Y', null, h.a.migratedLab.id, h.a.member.token)).statusCode).toBe(201);
  });
});
