// GET /inventory-items/{id}/history: docs/product.md §5 (per-item history: who changed what, when, old → new).
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, expectError, revokedToken } from './_helpers.js';
import { historyFixture } from './_history.js';

const h = useHarness();
const { history, historyOk, call } = historyFixture(h);

describe('GET /inventory-items/{id}/history (security)', () => {
  it('401 without a token, with an unknown token and with a revoked token', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) expectError(await history(token, h.a.legacyLab.itemId), 401, 'unauthorized');
  });

  it('org A tokens get 404 for org B items, even ones with history', async () => {
    const put = await h.call(h.b.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${h.b.legacyLab.itemId}`,
      payload: { quantity: '4' },
    });
    expect(put.statusCode).toBe(200);
    expect(await historyOk(h.b.legacyLab.itemId, h.b.admin.token)).toHaveLength(1);
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const id of [h.b.legacyLab.itemId, h.b.migratedLab.itemId]) expectError(await history(token, id), 404, 'not_found');
    }
  });

  it('the member gets 404 for an item of the lab they do not belong to; the outsider for every item', async () => {
    const hidden = await addItem(h, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Hidden', quantity: '1' });
    await call(h.a.admin.token, 'PATCH', `/inventory-items/${hidden.id}`, { name: 'Hidden, changed' });
    expect(await historyOk(hidden.id)).toHaveLength(1);
    expectError(await history(h.a.member.token, hidden.id), 404, 'not_found');
    for (const id of [hidden.id, h.a.legacyLab.itemId, h.a.migratedLab.itemId])
      expectError(await history(h.a.outsider.token, id), 404, 'not_found');
  });
});
