// A location tree damaged by an older version (issue 9, item 2): a cycle or a path deeper than seven levels,
// written here directly through a second database handle, as concurrent requests on PostgreSQL could leave it.
// Reads never fail on it (paths stay within the published 1 to 7 names), nothing new goes below the damage, and
// a move out of it repairs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../../src/shared/config.js';
import { type DbHandle, openDatabase } from '../../../src/shared/db/database.js';
import { eventMark, eventsSince, expectMatchesPublishedSchema } from '../../helpers/events.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

let h: Harness;
let old: DbHandle;
beforeAll(async () => {
  h = await startHarness();
  old = openDatabase(parseDatabaseUrl(h.database.url), h.database.pgSchema ? { pgSchema: h.database.pgSchema, poolSize: 1 } : {});
});
afterAll(async () => {
  await old?.close();
  await h?.close();
});

const lab = () => h.a.migratedLab.id;
const token = () => h.a.admin.token;
const itemId = () => h.a.migratedLab.itemId;
let seq = 0;
const uniq = (name: string) => `${name} ${++seq}`;

async function create(name: string, parent_id: string | null = null): Promise<string> {
  const r = await h.call(token(), { method: 'POST', url: '/locations', payload: { lab_id: lab(), parent_id, name } });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id;
}
const patch = (id: string, payload: { name?: string; parent_id?: string | null }) =>
  h.call(token(), { method: 'PATCH', url: `/locations/${id}`, payload });
/** What an older version could have committed: a parent set without any check. */
const setParentDirectly = (id: string, parentId: string) =>
  old.db.updateTable('locations').set({ parent_id: parentId }).where('id', '=', id).execute();

function expectPublishedPath(location: { name: string; pathNames: string[] } | null): void {
  expect(location).not.toBeNull();
  expect(location!.pathNames.length).toBeGreaterThanOrEqual(1);
  expect(location!.pathNames.length).toBeLessThanOrEqual(7);
  expect(location!.pathNames.at(-1)).toBe(location!.name);
}

/** Every read that renders a location path answers 200 within the published schema. */
async function expectReadsWork(): Promise<any> {
  const list = await h.call(token(), { method: 'GET', url: `/labs/${lab()}/locations` });
  expect(list.statusCode, list.body).toBe(200);
  for (const l of list.json()) expectPublishedPath(l);
  const items = await h.call(token(), { method: 'GET', url: `/inventory-items?lab_id=${lab()}&per_page=100` });
  expect(items.statusCode, items.body).toBe(200);
  const item = await h.call(token(), { method: 'GET', url: `/inventory-items/${itemId()}` });
  expect(item.statusCode, item.body).toBe(200);
  for (const inst of item.json().instances) if (inst.location) expectPublishedPath(inst.location);
  return item.json();
}

/** Stores an instance at `locationId` through the API; its event matches its published schema. */
async function storeAt(locationId: string): Promise<{ name: string; pathNames: string[] }> {
  const before = await eventMark(h);
  const r = await h.call(token(), {
    method: 'POST',
    url: `/inventory-items/${itemId()}/instances`,
    payload: { quantity: '1', location_id: locationId },
  });
  expect(r.statusCode, r.body).toBe(201);
  const events = await eventsSince(h, before);
  expect(events.length).toBeGreaterThan(0);
  for (const e of events) await expectMatchesPublishedSchema(h, 'inventory-item.updated', e.event);
  const location = r.json().instances.at(-1).location; // instances are listed oldest first
  expectPublishedPath(location);
  return location;
}

describe('a cycle stored by an older version', () => {
  it('reads without error, takes nothing new below it, and is repaired by moving one of its locations', async () => {
    const [aName, cName] = [uniq('A'), uniq('C')];
    const a = await create(aName);
    const c = await create(cName);
    const d = await create(uniq('D'), c);
    await setParentDirectly(a, c);
    await setParentDirectly(c, a); // A under C under A, D below C

    const location = await storeAt(d);
    expect(location.name).toBe(location.pathNames.at(-1));
    await expectReadsWork();

    // Nothing new goes below the cycle, and a move that keeps it is refused; both change nothing.
    const below = await h.call(token(), { method: 'POST', url: '/locations', payload: { lab_id: lab(), parent_id: d, name: 'New' } });
    expect(below.statusCode, below.body).toBe(409);
    expect(below.json().message).toMatch(/cycle/);
    const keeps = await patch(c, { parent_id: d });
    expect(keeps.statusCode, keeps.body).toBe(409);

    // Moving A to the root breaks the cycle: A, then C, then D.
    const repaired = await patch(a, { parent_id: null });
    expect(repaired.statusCode, repaired.body).toBe(200);
    expect(repaired.json().pathNames).toEqual([aName]);
    const item = await expectReadsWork();
    const stored = item.instances.find((i: any) => i.location?.name === location.name);
    expect(stored.location.pathNames).toEqual([aName, cName, location.name]);
    const list = (await h.call(token(), { method: 'GET', url: `/labs/${lab()}/locations` })).json();
    expect(list.find((l: any) => l.id === c).pathNames).toEqual([aName, cName]);
  });

  it('a location moved out from under a cycle is whole again', async () => {
    const a = await create(uniq('A'));
    const c = await create(uniq('C'));
    const xName = uniq('X');
    const x = await create(xName, c);
    await setParentDirectly(a, c);
    await setParentDirectly(c, a);
    const moved = await patch(x, { parent_id: null });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().pathNames).toEqual([xName]);
    // Then the cycle itself: C to the root, and A (now below C) can be deleted.
    expect((await patch(c, { parent_id: null })).statusCode).toBe(200);
    expect((await h.call(token(), { method: 'DELETE', url: `/locations/${a}` })).statusCode).toBe(204);
  });
});

describe('a path deeper than seven levels stored by an older version', () => {
  it('renders its nearest seven levels, takes nothing new below it, and is repaired by a move', async () => {
    const names = Array.from({ length: 7 }, () => uniq('L'));
    const ids: string[] = [];
    for (const name of names) ids.push(await create(name, ids.at(-1) ?? null));
    const deepName = uniq('Deep');
    const deep = await create(deepName);
    await setParentDirectly(deep, ids[6]!); // depth 8

    const location = await storeAt(deep);
    expect(location.pathNames).toEqual([...names.slice(1), deepName]);
    await expectReadsWork();

    const below = await h.call(token(), { method: 'POST', url: '/locations', payload: { lab_id: lab(), parent_id: deep, name: 'New' } });
    expect(below.statusCode, below.body).toBe(409);

    const repaired = await patch(deep, { parent_id: ids[2]! });
    expect(repaired.statusCode, repaired.body).toBe(200);
    expect(repaired.json().pathNames).toEqual([...names.slice(0, 3), deepName]);
    const item = await expectReadsWork();
    expect(item.instances.find((i: any) => i.location?.name === deepName).location.pathNames).toEqual([...names.slice(0, 3), deepName]);
  });
});
