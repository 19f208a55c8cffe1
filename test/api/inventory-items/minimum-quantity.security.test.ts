// GET and PUT /inventory-items/{id}/minimum-quantity (docs/product.md §3): another organization's item, an item of a lab
// the member does not belong to, and any item for a user of no lab are 404 (never 403, never data), changing
// nothing; a member of the item's lab and an org admin may set it.
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, dbState, expectError } from './_helpers.js';

let hiddenA: string;
const h = useHarness({}, async (h) => {
  hiddenA = (await addItem(h, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Hidden from members', quantity: '1' })).id;
});

const url = (id: string) => `/inventory-items/${id}/minimum-quantity`;

async function refused(token: string, id: string) {
  const before = await dbState(h);
  const got = await h.call(token, { method: 'GET', url: url(id) });
  const put = await h.call(token, { method: 'PUT', url: url(id), payload: { minimum_quantity: '7' } });
  expect(await dbState(h)).toEqual(before);
  for (const res of [got, put]) {
    expectError(res, 404, 'not_found');
    expect(res.body).not.toContain(id);
  }
}

describe('minimum quantity (security)', () => {
  it("another organization's items are 404 for its admin and members", async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token])
      for (const id of [h.b.legacyLab.itemId, h.b.migratedLab.itemId]) await refused(token, id);
    for (const token of [h.b.admin.token, h.b.member.token]) await refused(token, hiddenA);
  });

  it('a member is 404 on a lab they do not belong to; a user of no lab on every item', async () => {
    await refused(h.a.member.token, hiddenA);
    for (const id of [h.a.legacyLab.itemId, h.a.migratedLab.itemId, hiddenA]) await refused(h.a.outsider.token, id);
  });

  it("a member of the item's lab and the org admin may set it", async () => {
    const member = await h.call(h.a.member.token, { method: 'PUT', url: url(h.a.legacyLab.itemId), payload: { minimum_quantity: '1' } });
    expect(member.statusCode, member.body).toBe(200);
    const admin = await h.call(h.a.admin.token, { method: 'PUT', url: url(hiddenA), payload: { minimum_quantity: '2' } });
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json()).toEqual({ item_id: hiddenA, minimum_quantity: '2', quantity: '1', below_minimum: true });
  });

  it("a minimum set in one organization shows nowhere in another's lists", async () => {
    const res = await h.call(h.b.admin.token, { method: 'GET', url: '/inventory-items?below_minimum=true&per_page=100' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });
});
