// DELETE /inventory-items/{id}: docs/product.md §5 (delete items) and §7 (inventory-item.deleted with the last state,
// instances included).
import { describe, expect, it } from 'vitest';
import { itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, expectError, getItemJson, revokedToken } from './_helpers.js';

const h = useHarness();
const { unchangedBy, deleteItem: del } = itemFixture(h);

const unchanged = (token: string | null, id: string, headers: Record<string, string> = {}) => unchangedBy(() => del(token, id, headers));

describe('DELETE /inventory-items/{id} (security)', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing changes', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Safe' });
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) expectError(await unchanged(token, item.id), 401, 'unauthorized');
  });

  it('org A tokens get 404 for org B items, which stay', async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const id of [h.b.legacyLab.itemId, h.b.migratedLab.itemId]) {
        expectError(await unchanged(token, id), 404, 'not_found');
        expectError(await unchanged(token, id, { 'if-match': '*' }), 404, 'not_found');
      }
    }
    expect((await getItemJson(h, h.b.admin.token, h.b.migratedLab.itemId)).body.instances).toHaveLength(2);
  });

  it('the member gets 404 for an item of the lab they do not belong to; the outsider for every item', async () => {
    const hidden = await addItem(h, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Hidden' });
    expectError(await unchanged(h.a.member.token, hidden.id), 404, 'not_found');
    const visible = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Visible' });
    for (const id of [hidden.id, visible.id]) expectError(await unchanged(h.a.outsider.token, id), 404, 'not_found');
  });
});
