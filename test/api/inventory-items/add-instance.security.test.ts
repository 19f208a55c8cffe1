// POST /inventory-items/{id}/instances: another organization's items, labs the member is not in, and no token.

import { describe, expect, it } from 'vitest';
import { instancesUrl, itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { expectError, getItemJson, revokedToken } from './_helpers.js';

const h = useHarness();
const { add, unchanged, migratedItem, hiddenItems } = itemFixture(h);

describe('POST /inventory-items/{id}/instances (security)', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing changes', async () => {
    const item = await migratedItem();
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) {
      expectError(await unchanged(token, { method: 'POST', url: instancesUrl(item.id), payload: { quantity: '1' } }), 401, 'unauthorized');
    }
  });

  it('org A tokens get 404 for org B items; B stays as it was', async () => {
    const b = h.b.migratedLab;
    const bBefore = await getItemJson(h, h.b.admin.token, b.itemId);
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      expectError(await unchanged(token, { method: 'POST', url: instancesUrl(b.itemId), payload: { quantity: '1' } }), 404, 'not_found');
    }
    const bAfter = await getItemJson(h, h.b.admin.token, b.itemId);
    expect([bAfter.body, bAfter.etag]).toEqual([bBefore.body, bBefore.etag]);
  });

  it('the member gets 404 for an item of a lab they do not belong to; the outsider for every item', async () => {
    // Items of a migrated lab of org A that the member is not in, and of a lab they do not belong to.
    const { hidden, legacyHidden } = await hiddenItems();
    const item = await migratedItem();
    for (const [token, itemId] of [
      [h.a.member.token, hidden.id],
      [h.a.member.token, legacyHidden.id],
      [h.a.outsider.token, item.id],
      [h.a.outsider.token, hidden.id],
    ] as const) {
      expectError(await unchanged(token, { method: 'POST', url: instancesUrl(itemId), payload: { quantity: '1' } }), 404, 'not_found');
    }
    // The admin can: the 404s above are about visibility, not about the ids.
    expect((await add(h.a.admin.token, hidden.id, { quantity: '1' })).statusCode).toBe(201);
  });
});
