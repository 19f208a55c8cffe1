// A count of a lab without instances through the lab's visibility: no token is 401; another organization's lab,
// count or item, and a lab the caller is not in, are 404 "not found" (never data) and change nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbState } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { apply, countItem, get, makeLegacyLab, startLab } from './_stocktake.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('stocktake of a lab without instances (security)', () => {
  it('401 without a token or with an unknown one', async () => {
    const s = await makeLegacyLab(h);
    const view = (await startLab(h, h.a.admin.token, s.labId)).json();
    for (const token of [null, 'lst_unknown']) {
      expectError(await startLab(h, token, s.labId), 401, 'unauthorized');
      expectError(await countItem(h, token, view.id, s.itemIds[0]), 401, 'unauthorized');
      expectError(await h.call(token, { method: 'DELETE', url: `/stocktakes/${view.id}/items/${s.itemIds[0]}` }), 401, 'unauthorized');
    }
  });

  it("another organization's lab, count and items are 404 to every token of A, and nothing changes", async () => {
    const b = await makeLegacyLab(h, h.b);
    const bView = (await startLab(h, h.b.admin.token, b.labId)).json();
    await countItem(h, h.b.admin.token, bView.id, b.itemIds[0], { quantity: '1' });
    const a = await makeLegacyLab(h);
    const aView = (await startLab(h, h.a.admin.token, a.labId)).json();
    const before = await dbState(h);
    const beforeCounts = await h.deps.db.selectFrom('stocktake_counts').selectAll().execute();
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      expectError(await startLab(h, token, b.labId), 404, 'not_found');
      expectError(await get(h, token, bView.id), 404, 'not_found');
      expectError(await countItem(h, token, bView.id, b.itemIds[1]), 404, 'not_found');
      expectError(await h.call(token, { method: 'DELETE', url: `/stocktakes/${bView.id}/items/${b.itemIds[0]}` }), 404, 'not_found');
      expectError(await apply(h, token, bView.id, { missing: 'set_to_zero' }), 404, 'not_found');
    }
    // B's item counted into A's own count: not found either.
    expectError(await countItem(h, h.a.admin.token, aView.id, b.itemIds[0]), 404, 'not_found');
    expect(await dbState(h)).toEqual(before);
    expect(await h.deps.db.selectFrom('stocktake_counts').selectAll().execute()).toEqual(beforeCounts);
    expect((await get(h, h.b.admin.token, bView.id)).json().summary.counted).toBe(1);
  });

  it('a member of the organization who is not in the lab cannot start, read or count its count (404)', async () => {
    const s = await makeLegacyLab(h);
    const view = (await startLab(h, h.a.member.token, s.labId)).json();
    expectError(await startLab(h, h.a.outsider.token, s.labId), 404, 'not_found');
    expectError(await get(h, h.a.outsider.token, view.id), 404, 'not_found');
    expectError(await countItem(h, h.a.outsider.token, view.id, s.itemIds[0]), 404, 'not_found');
    expect((await get(h, h.a.member.token, view.id)).json().summary.counted).toBe(0);
  });
});
