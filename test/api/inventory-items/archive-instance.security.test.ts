// POST /inventory-items/{itemId}/instances/{itemInstanceId}/archive: another organization's items and instances,
// labs the member is not in, and no token.

import { describe, expect, it } from 'vitest';
import { instanceUrl, itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { expectError, getItemJson, revokedToken, UNKNOWN_ID } from './_helpers.js';

const h = useHarness();
const { archive, unchanged, migratedItem, hiddenItems } = itemFixture(h);

describe('POST /inventory-items/{itemId}/instances/{itemInstanceId}/archive (security)', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing changes', async () => {
    const item = await migratedItem();
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) {
      expectError(
        await unchanged(token, { method: 'POST', url: `${instanceUrl(item.id, item.instanceIds[0]!)}/archive` }),
        401,
        'unauthorized',
      );
    }
  });

  it('org A tokens get 404 for org B items and instances; B stays as it was', async () => {
    const b = h.b.migratedLab;
    const bBefore = await getItemJson(h, h.b.admin.token, b.itemId);
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      expectError(await unchanged(token, { method: 'POST', url: `${instanceUrl(b.itemId, b.instanceIds[0]!)}/archive` }), 404, 'not_found');
      // An org B instance addressed through an org A item is not found either.
      expectError(
        await unchanged(token, { method: 'POST', url: `${instanceUrl(h.a.migratedLab.itemId, b.instanceIds[0]!)}/archive` }),
        404,
        'not_found',
      );
    }
    const bAfter = await getItemJson(h, h.b.admin.token, b.itemId);
    expect([bAfter.body, bAfter.etag]).toEqual([bBefore.body, bBefore.etag]);
  });

  it('the member gets 404 for an item of a lab they do not belong to; the outsider for every item', async () => {
    // Items of a migrated lab of org A that the member is not in, and of a lab they do not belong to.
    const { hidden, hiddenInstance, legacyHidden } = await hiddenItems();
    const item = await migratedItem();
    for (const [token, itemId, instanceId] of [
      [h.a.member.token, hidden.id, hiddenInstance],
      [h.a.member.token, legacyHidden.id, UNKNOWN_ID],
      [h.a.outsider.token, item.id, item.instanceIds[0]!],
      [h.a.outsider.token, hidden.id, hiddenInstance],
    ] as const) {
      expectError(await unchanged(token, { method: 'POST', url: `${instanceUrl(itemId, instanceId)}/archive` }), 404, 'not_found');
    }
    // The admin can: the 404s above are about visibility, not about the ids.
    expect((await archive(h.a.admin.token, hidden.id, hiddenInstance)).statusCode).toBe(200);
  });
});
