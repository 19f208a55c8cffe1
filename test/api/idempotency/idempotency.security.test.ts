// Keys are scoped per credential (a token, or a signed-in session): another token, another person or another
// organization sending the same key never gets someone else's stored answer, and never blocks their own work.

import { describe, expect, it } from 'vitest';
import { addItem, newToken } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { givePassword, signIn, withSession } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';
import { adjustmentsOf, isReplay, keyed, quantityOf } from './_helpers.js';

const h = useHarness();

describe('Idempotency-Key is scoped per token', () => {
  it("another organization's token replaying A's exact request gets 404, not A's stored answer", async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Private', quantity: '4.5' });
    const opts = keyed('shared-key', { method: 'POST', url: `/inventory-items/${item.id}/adjustments`, payload: { delta: '-0.2' } });
    const mine = await h.call(h.a.admin.token, opts);
    expect(mine.statusCode).toBe(200);
    const theirs = await h.call(h.b.admin.token, opts);
    expectError(theirs, 404, 'not_found');
    expect(isReplay(theirs)).toBe(false);
    expect(theirs.body).not.toContain(item.id);
    expect(await quantityOf(h, h.a.admin.token, item.id)).toBe('4.3');
  });

  it("another token of the same person, and the person's session, do their own work under the same key", async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Per token', quantity: '4.5' });
    const opts = keyed('same', { method: 'POST', url: `/inventory-items/${item.id}/adjustments`, payload: { delta: '-0.2' } });
    const second = await newToken(h, h.a, 'admin');
    await givePassword(h, h.a.admin.id);
    const session = await signIn(h, h.a.admin.email);
    const results = [await h.call(h.a.admin.token, opts), await h.call(second.token, opts), await withSession(h, session, opts)];
    for (const r of results) {
      expect(r.statusCode, r.body).toBe(200);
      expect(isReplay(r)).toBe(false);
    }
    expect(await quantityOf(h, h.a.admin.token, item.id)).toBe('3.9');
    expect(await adjustmentsOf(h, item.id)).toBe(3);
  });

  it('a member of another lab cannot replay a PATCH of an item they cannot see, even with the key and body', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Other lab', quantity: '1' });
    const opts = keyed('patch-key', { method: 'PATCH', url: `/inventory-items/${item.id}`, payload: { vendor: 'Sigma' } });
    expect((await h.call(h.a.admin.token, opts)).statusCode).toBe(200);
    const res = await h.call(h.a.member.token, opts);
    expectError(res, 404, 'not_found');
    expect(res.body).not.toContain('Sigma');
  });
});
