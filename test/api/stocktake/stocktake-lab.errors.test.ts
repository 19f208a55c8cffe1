// Refusals of a count of a lab without instances (docs/stocktake.md, "Labs without instances"): bad input is a clear
// error and records nothing; a count of a location takes no items and a count of a lab no containers; a lab that uses
// instances is counted by location; an applied count is closed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbState } from '../../helpers/data.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { apply, count, countItem, get, itemQuantity, makeLegacyLab, makeShelf, start, started, startLab } from './_stocktake.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const countRows = (id: string) => h.deps.db.selectFrom('stocktake_counts').selectAll().where('session_id', '=', id).execute();
const startedLab = async (labId: string) => {
  const res = await startLab(h, h.a.member.token, labId);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};

describe('stocktake of a lab without instances (errors)', () => {
  it('start takes exactly one of a location and a lab; a lab that uses instances is counted by location (409)', async () => {
    const s = await makeLegacyLab(h);
    const shelf = await makeShelf(h);
    const both = await h.call(h.a.member.token, {
      method: 'POST',
      url: '/stocktakes',
      payload: { lab_id: s.labId, location_id: shelf.rootId },
    });
    expect(expectValidation(both, 'location_id').errors[0].message).toMatch(/exactly one of location_id .* and lab_id/);
    expectValidation(await startLab(h, h.a.member.token, 'not-a-uuid'), 'lab_id');
    expectError(await startLab(h, h.a.member.token, '0190f5d2-8c1e-7a55-9b1e-3f0c2a7d4e11'), 404, 'not_found');
    const before = await dbState(h);
    const migrated = expectError(await startLab(h, h.a.member.token, h.a.migratedLab.id), 409, 'conflict');
    expect(migrated.message).toMatch(/uses instances: count a location/);
    expect(await dbState(h)).toEqual(before);
    expect((await start(h, h.a.member.token, shelf.rootId)).statusCode).toBe(201);
  });

  it('a count refuses a bad quantity, a place, an item of another lab and a container, and records nothing', async () => {
    const s = await makeLegacyLab(h);
    const view = await startedLab(s.labId);
    expectValidation(await countItem(h, h.a.member.token, view.id, s.itemIds[0], { quantity: '-1' }), 'quantity');
    expectValidation(await countItem(h, h.a.member.token, view.id, s.itemIds[0], { quantity: 'lots' }), 'quantity');
    expectValidation(await countItem(h, h.a.member.token, view.id, s.itemIds[0], { location_id: null }), 'location_id');
    // The fixture's legacy lab is another lab of the organization: its item is not in this count.
    expectError(await countItem(h, h.a.member.token, view.id, h.a.legacyLab.itemId), 404, 'not_found');
    expectError(await countItem(h, h.a.member.token, view.id, '0190f5d2-8c1e-7a55-9b1e-3f0c2a7d4e11'), 404, 'not_found');
    const container = expectError(await count(h, h.a.member.token, view.id, h.a.migratedLab.instanceIds[0]!), 409, 'conflict');
    expect(container.message).toMatch(/count each item/);
    expect(await countRows(view.id)).toEqual([]);
  });

  it('a count of a location takes no items (409)', async () => {
    const shelf = await makeShelf(h);
    const view = await started(h, h.a.member.token, shelf.rootId);
    const res = expectError(await countItem(h, h.a.member.token, view.id, shelf.itemId), 409, 'conflict');
    expect(res.message).toMatch(/count each container/);
    expect(await countRows(view.id)).toEqual([]);
  });

  it("an item's count taken back is missing again; taking back one never counted is 404", async () => {
    const s = await makeLegacyLab(h);
    const view = await startedLab(s.labId);
    expect((await countItem(h, h.a.member.token, view.id, s.itemIds[0])).statusCode).toBe(200);
    const url = `/stocktakes/${view.id}/items/${s.itemIds[0]}`;
    expect((await h.call(h.a.member.token, { method: 'DELETE', url })).statusCode).toBe(204);
    expect((await get(h, h.a.member.token, view.id)).json().summary.counted).toBe(0);
    expectError(await h.call(h.a.member.token, { method: 'DELETE', url }), 404, 'not_found');
  });

  it('an applied count is closed: a second apply, a count and a cancel are 409 and change nothing', async () => {
    const s = await makeLegacyLab(h);
    const view = await startedLab(s.labId);
    await countItem(h, h.a.member.token, view.id, s.itemIds[0], { quantity: '1' });
    expect((await apply(h, h.a.member.token, view.id)).statusCode).toBe(200);
    expect(await itemQuantity(h, s.itemIds[0])).toBe('1');
    const before = await dbState(h);
    expect(expectError(await apply(h, h.a.admin.token, view.id, { missing: 'set_to_zero' }), 409, 'conflict').message).toMatch(
      /already applied/,
    );
    expectError(await countItem(h, h.a.member.token, view.id, s.itemIds[1], { quantity: '0' }), 409, 'conflict');
    expectError(await h.call(h.a.member.token, { method: 'POST', url: `/stocktakes/${view.id}/cancel` }), 409, 'conflict');
    expect(await dbState(h)).toEqual(before);
    expect(await itemQuantity(h, s.itemIds[1])).toBe('2');
    // A new count of the lab can start.
    expect((await startedLab(s.labId)).id).not.toBe(view.id);
  });
});
