// The amount endpoints (docs/product.md §3): another organization's item, an item of a lab the member does not
// belong to, and any item for a user of no lab are 404 alone and left out of the list (never data).
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, bAdminTokenInA, expectError } from '../inventory-items/_helpers.js';
import { amountRequests } from './_amounts.js';

let hiddenA: string;
const h = useHarness({}, async (h) => {
  hiddenA = (await addItem(h, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Hidden from members', unitSize: '2.5 L', quantity: '4' }))
    .id;
});
const { getAmount, getAmounts } = amountRequests(h);

async function hidden(token: string, ids: string[]) {
  for (const id of ids) {
    const res = await getAmount(token, id);
    expectError(res, 404, 'not_found');
    expect(res.body).not.toContain(id);
  }
  const list = await getAmounts(token, ids);
  expect(list.statusCode, list.body).toBe(200);
  expect(list.json()).toEqual([]);
}

describe('item amounts (security)', () => {
  it("another organization's items are not found for its admin and members", async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token])
      await hidden(token, [h.b.legacyLab.itemId, h.b.migratedLab.itemId]);
    for (const token of [h.b.admin.token, h.b.member.token]) await hidden(token, [hiddenA, h.a.legacyLab.itemId]);
  });

  it('a member does not see a lab they do not belong to; a user of no lab sees none', async () => {
    await hidden(h.a.member.token, [hiddenA]);
    await hidden(h.a.outsider.token, [h.a.legacyLab.itemId, h.a.migratedLab.itemId, hiddenA]);
  });

  it('a list mixing seen and unseen ids gives the seen ones only', async () => {
    const res = await getAmounts(h.a.member.token, [hiddenA, h.b.legacyLab.itemId, h.a.legacyLab.itemId]);
    expect(res.json().map((a: { item_id: string }) => a.item_id)).toEqual([h.a.legacyLab.itemId]);
    const admin = await getAmounts(h.a.admin.token, [hiddenA, h.b.legacyLab.itemId]);
    expect(admin.json()).toEqual([
      {
        item_id: hiddenA,
        quantity: '4',
        unit_size: '2.5 L',
        total: { family: 'volume', amount: '10', unit: 'L', text: '10 L' },
        instances: [],
      },
    ]);
  });

  it('a token is scoped to its organization, whatever its user is elsewhere', async () => {
    const token = await bAdminTokenInA(h);
    await hidden(token, [h.b.legacyLab.itemId, h.b.migratedLab.itemId]);
    expect((await getAmount(token, h.a.legacyLab.itemId)).statusCode).toBe(200);
  });
});
