// Stocktake through the lab's visibility: no token is 401; another organization's count, location or container,
// and a lab the caller does not belong to, are 404 "not found" (never 403, never data), and change nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbState } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { apply, count, get, makeShelf, start, started } from './_stocktake.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('stocktake (security)', () => {
  it('401 without a token or with an unknown one', async () => {
    const s = await makeShelf(h);
    const view = await started(h, h.a.admin.token, s.rootId);
    for (const token of [null, 'lst_unknown']) {
      expectError(await start(h, token, s.rootId), 401, 'unauthorized');
      expectError(await get(h, token, view.id), 401, 'unauthorized');
      expectError(await count(h, token, view.id, s.instanceIds[0]!), 401, 'unauthorized');
      expectError(await apply(h, token, view.id), 401, 'unauthorized');
      expectError(await h.call(token, { method: 'GET', url: '/stocktakes' }), 401, 'unauthorized');
    }
  });

  it("another organization's count, location and containers are 404 to every token of A, and nothing changes", async () => {
    const b = await makeShelf(h, h.b);
    const bView = await started(h, h.b.admin.token, b.rootId);
    const a = await makeShelf(h);
    const aView = await started(h, h.a.admin.token, a.rootId);
    const before = await dbState(h);
    const beforeCounts = await h.deps.db.selectFrom('stocktake_counts').selectAll().execute();
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      expectError(await start(h, token, b.rootId), 404, 'not_found');
      for (const suffix of ['', '/report.csv', '/report.pdf']) expectError(await get(h, token, bView.id, suffix), 404, 'not_found');
      expectError(await count(h, token, bView.id, b.instanceIds[0]!), 404, 'not_found');
      expectError(await apply(h, token, bView.id, { missing: 'set_to_zero' }), 404, 'not_found');
      expectError(await h.call(token, { method: 'POST', url: `/stocktakes/${bView.id}/cancel` }), 404, 'not_found');
      expectError(await h.call(token, { method: 'DELETE', url: `/stocktakes/${bView.id}/counts/${b.instanceIds[0]}` }), 404, 'not_found');
      expectError(await h.call(token, { method: 'GET', url: `/stocktakes?lab_id=${h.b.migratedLab.id}` }), 404, 'not_found');
      const listed = (await h.call(token, { method: 'GET', url: '/stocktakes?per_page=100' })).json();
      expect(listed.map((x: any) => x.id)).not.toContain(bView.id);
    }
    // B's container counted into A's own count: not found either.
    expectError(await count(h, h.a.admin.token, aView.id, b.instanceIds[0]!), 404, 'not_found');
    expect(await dbState(h)).toEqual(before);
    expect(await h.deps.db.selectFrom('stocktake_counts').selectAll().execute()).toEqual(beforeCounts);
    expect((await get(h, h.b.admin.token, bView.id)).json().status).toBe('open');
  });

  it('a member of the organization who is not in the lab sees none of its counts (404)', async () => {
    const s = await makeShelf(h);
    const view = await started(h, h.a.member.token, s.rootId);
    expectError(await get(h, h.a.outsider.token, view.id), 404, 'not_found');
    expectError(await start(h, h.a.outsider.token, s.rootId), 404, 'not_found');
    expectError(await apply(h, h.a.outsider.token, view.id), 404, 'not_found');
    expect((await h.call(h.a.outsider.token, { method: 'GET', url: '/stocktakes' })).json()).toEqual([]);
    // The org admin sees every lab of the organization, so the count too.
    expect((await get(h, h.a.admin.token, view.id)).statusCode).toBe(200);
  });
});
