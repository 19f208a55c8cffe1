// GET /labs/{id}/locations: every location of a lab that uses instances, with its parent and its path (root first).
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const list = (token: string, labId: string) => h.call(token, { method: 'GET', url: `/labs/${labId}/locations` });
const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

describe('GET /labs/{id}/locations (happy)', () => {
  it("lists the lab's tree: each location with its parent_id and its path, root first; a member of the lab sees the same", async () => {
    const [room, freezer, shelf] = h.a.migratedLab.locationIds;
    const res = await list(h.a.admin.token, h.a.migratedLab.id);
    expect(res.statusCode, res.body).toBe(200);
    expect([...res.json()].sort(byName)).toEqual([
      { id: freezer, name: 'Freezer A', parent_id: room, pathNames: ['Room 101', 'Freezer A'] },
      { id: room, name: 'Room 101', parent_id: null, pathNames: ['Room 101'] },
      { id: shelf, name: 'Shelf 2', parent_id: freezer, pathNames: ['Room 101', 'Freezer A', 'Shelf 2'] },
    ]);
    const member = await list(h.a.member.token, h.a.migratedLab.id);
    expect(member.statusCode, member.body).toBe(200);
    expect(member.json()).toEqual(res.json());
  });

  it('a lab without locations (a legacy lab has none) lists []', async () => {
    const res = await list(h.a.admin.token, h.a.legacyLab.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([]);
  });
});
