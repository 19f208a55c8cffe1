// PATCH /inventory-items/{id}: docs/product.md §5 (edit items; history per field) and §2 (If-Match → 412), §7
// (inventory-item.updated once per change, none when nothing changed).

import { describe, expect, it } from 'vitest';
import { itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, expectError, getItemJson, revokedToken } from './_helpers.js';

const h = useHarness();
const { unchangedBy, patchItem: patch } = itemFixture(h);

const unchanged = (token: string | null, id: string, payload: unknown, headers: Record<string, string> = {}) =>
  unchangedBy(() => patch(token, id, payload, headers));

describe('PATCH /inventory-items/{id} (security)', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing changes', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked])
      expectError(await unchanged(token, h.a.legacyLab.itemId, { name: 'X' }), 401, 'unauthorized');
  });

  it('org A tokens get 404 for org B items (also with If-Match *), which stay as they were', async () => {
    const bBefore = await getItemJson(h, h.b.admin.token, h.b.legacyLab.itemId);
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const id of [h.b.legacyLab.itemId, h.b.migratedLab.itemId]) {
        expectError(await unchanged(token, id, { name: 'Hijacked' }), 404, 'not_found');
        expectError(await unchanged(token, id, { name: 'Hijacked' }, { 'if-match': '*' }), 404, 'not_found');
      }
    }
    // Nor can an org A item take an org B type.
    expectError(await unchanged(h.a.admin.token, h.a.legacyLab.itemId, { type_id: h.b.legacyLab.typeId }), 404, 'not_found');
    const bAfter = await getItemJson(h, h.b.admin.token, h.b.legacyLab.itemId);
    expect([bAfter.body, bAfter.etag]).toEqual([bBefore.body, bBefore.etag]);
  });

  it('the member gets 404 for an item of the lab they do not belong to; the outsider for every item', async () => {
    const hidden = await addItem(h, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Hidden', quantity: '1' });
    expectError(await unchanged(h.a.member.token, hidden.id, { name: 'Sneaky' }), 404, 'not_found');
    for (const id of [hidden.id, h.a.legacyLab.itemId, h.a.migratedLab.itemId]) {
      expectError(await unchanged(h.a.outsider.token, id, { name: 'Sneaky' }), 404, 'not_found');
    }
  });
});
