// Stocktake refusals (docs/stocktake.md): bad input is a clear error and changes nothing; a count applied or cancelled
// is closed (409), so a second apply never applies twice.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbState } from '../../helpers/data.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { apply, count, get, instanceNow, lineOf, makeShelf, start, started } from './_stocktake.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const countRows = (id: string) => h.deps.db.selectFrom('stocktake_counts').selectAll().where('session_id', '=', id).execute();

describe('stocktake (errors)', () => {
  it('starting needs a known location: 422 without one, 404 for an unknown id', async () => {
    expectValidation(await h.call(h.a.member.token, { method: 'POST', url: '/stocktakes', payload: {} }), 'location_id');
    expectValidation(await start(h, h.a.member.token, 'not-a-uuid'), 'location_id');
    expectError(await start(h, h.a.member.token, '0190f5d2-8c1e-7a55-9b1e-3f0c2a7d4e11'), 404, 'not_found');
    expectError(await get(h, h.a.member.token, '0190f5d2-8c1e-7a55-9b1e-3f0c2a7d4e11'), 404, 'not_found');
  });

  it('a count refuses a bad quantity, a place outside the subtree and a container of another lab, and records nothing', async () => {
    const s = await makeShelf(h);
    const view = await started(h, h.a.admin.token, s.rootId);
    expectValidation(await count(h, h.a.admin.token, view.id, s.instanceIds[0]!, { quantity: '-1' }), 'quantity');
    expectValidation(await count(h, h.a.admin.token, view.id, s.instanceIds[0]!, { quantity: 'lots' }), 'quantity');
    expectValidation(await count(h, h.a.admin.token, view.id, s.instanceIds[0]!, { extra: 1 }), 'extra');
    const outside = await count(h, h.a.admin.token, view.id, s.instanceIds[0]!, { location_id: s.outsideId });
    expect(expectValidation(outside, 'location_id').errors[0].message).toMatch(/counted location or a location below it/);
    // No container of this lab: not found (another lab's, in the security tests).
    expectError(await count(h, h.a.admin.token, view.id, '0190f5d2-8c1e-7a55-9b1e-3f0c2a7d4e11'), 404, 'not_found');
    expect(await countRows(view.id)).toEqual([]);
  });

  it('a count taken back is missing again; taking back one never counted is 404', async () => {
    const s = await makeShelf(h);
    const view = await started(h, h.a.member.token, s.rootId);
    await count(h, h.a.member.token, view.id, s.instanceIds[0]!);
    const del = await h.call(h.a.member.token, { method: 'DELETE', url: `/stocktakes/${view.id}/counts/${s.instanceIds[0]}` });
    expect(del.statusCode, del.body).toBe(204);
    expect(lineOf((await get(h, h.a.member.token, view.id)).json(), s.instanceIds[0]!).state).toBe('missing');
    const again = await h.call(h.a.member.token, { method: 'DELETE', url: `/stocktakes/${view.id}/counts/${s.instanceIds[0]}` });
    expectError(again, 404, 'not_found');
  });

  it('an applied count is closed: a second apply (no Idempotency-Key) is 409 and changes nothing, and so are counts and cancel', async () => {
    const s = await makeShelf(h);
    const view = await started(h, h.a.member.token, s.rootId);
    await count(h, h.a.member.token, view.id, s.instanceIds[0]!, { quantity: '1' });
    expect((await apply(h, h.a.member.token, view.id)).statusCode).toBe(200);
    const before = await dbState(h);
    const second = expectError(await apply(h, h.a.member.token, view.id), 409, 'conflict');
    expect(second.message).toMatch(/already applied/);
    expectError(await apply(h, h.a.admin.token, view.id, { missing: 'set_to_zero' }), 409, 'conflict');
    expectError(await count(h, h.a.member.token, view.id, s.instanceIds[1]!), 409, 'conflict');
    expectError(await h.call(h.a.member.token, { method: 'POST', url: `/stocktakes/${view.id}/cancel` }), 409, 'conflict');
    expect(await dbState(h)).toEqual(before);
    expect(await instanceNow(h, s.itemId, s.instanceIds[0]!)).toMatchObject({ quantity: '1' });
  });

  it('a cancelled count applies nothing, and a new one can start on the same location', async () => {
    const s = await makeShelf(h);
    const view = await started(h, h.a.member.token, s.rootId);
    await count(h, h.a.member.token, view.id, s.instanceIds[0]!, { quantity: '1' });
    const cancelled = await h.call(h.a.member.token, { method: 'POST', url: `/stocktakes/${view.id}/cancel` });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', finished_by: { id: h.a.member.id } });
    expectError(await apply(h, h.a.member.token, view.id), 409, 'conflict');
    expect(await instanceNow(h, s.itemId, s.instanceIds[0]!)).toMatchObject({ quantity: '5' });
    const next = await started(h, h.a.member.token, s.rootId);
    expect(next.id).not.toBe(view.id);
  });

  it('apply refuses an unknown choice for the missing ones', async () => {
    const s = await makeShelf(h);
    const view = await started(h, h.a.member.token, s.rootId);
    expectValidation(await apply(h, h.a.member.token, view.id, { missing: 'archive' }), 'missing');
    expect((await get(h, h.a.member.token, view.id)).json().status).toBe('open');
  });
});
