// GET /inventory-items/{id}/amount and GET /inventory-item-amounts refusals (docs/product.md §2): 401, 404, 422,
// each in the error shape; reads change nothing.
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, dbState, expectError, expectValidation, revokedToken, UNKNOWN_ID } from '../inventory-items/_helpers.js';
import { amountRequests, amountUrl } from './_amounts.js';

const h = useHarness();
const { getAmount, getAmounts } = amountRequests(h);

describe('item amounts (errors)', () => {
  it('401 without a valid token, for both', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) {
      expectError(await getAmount(token as string, h.a.legacyLab.itemId), 401, 'unauthorized');
      expectError(await getAmounts(token as string, [h.a.legacyLab.itemId]), 401, 'unauthorized');
    }
  });

  it('404 for an item that does not exist (and was deleted); 422 for an id that is not a UUID', async () => {
    expectError(await getAmount(h.a.admin.token, UNKNOWN_ID), 404, 'not_found');
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Soon gone', unitSize: '1 L', quantity: '1' });
    const del = await h.call(h.a.admin.token, { method: 'DELETE', url: `/inventory-items/${item.id}` });
    expect(del.statusCode, del.body).toBe(204);
    expectError(await getAmount(h.a.admin.token, item.id), 404, 'not_found');
    expectValidation(await h.call(h.a.admin.token, { method: 'GET', url: amountUrl('not-a-uuid') }), 'id');
  });

  it('422 for the list without ids, with an id that is not a UUID, or with more than 100', async () => {
    expectValidation(await h.call(h.a.admin.token, { method: 'GET', url: '/inventory-item-amounts' }), 'item_id');
    expectValidation(await getAmounts(h.a.admin.token, [h.a.legacyLab.itemId, 'nope']), 'item_id[1]');
    const many = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expectValidation(await getAmounts(h.a.admin.token, many), 'item_id');
    const hundred = await getAmounts(h.a.admin.token, [...many.slice(0, 99), h.a.legacyLab.itemId]);
    expect(hundred.statusCode, hundred.body).toBe(200);
    expect(hundred.json().map((a: { item_id: string }) => a.item_id)).toEqual([h.a.legacyLab.itemId]);
  });

  it('ids that do not exist are left out of the list: an empty list, not an error', async () => {
    const res = await getAmounts(h.a.admin.token, [UNKNOWN_ID]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('a read writes nothing', async () => {
    const before = await dbState(h);
    await getAmount(h.a.admin.token, h.a.migratedLab.itemId);
    await getAmounts(h.a.admin.token, [h.a.migratedLab.itemId, h.a.legacyLab.itemId]);
    expect(await dbState(h)).toEqual(before);
  });
});
