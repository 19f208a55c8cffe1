// POST /inventory-items/{id}/adjustments {delta, note?, instance_id?}: docs/product.md §5 (relative adjustments that refuse
// to go below zero), §2 (exact decimal arithmetic; never lose an update under concurrency), §7 (one event each).

import { describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, expectError, getItemJson, revokedToken } from './_helpers.js';

const h = useHarness();
const { unchanged } = itemFixture(h);

const url = (itemId: string) => `/inventory-items/${itemId}/adjustments`;

const unchangedAdjust = (token: string | null, itemId: string, payload: unknown) =>
  unchanged(token, { method: 'POST', url: url(itemId), payload: payload as any });

const legacyItem = (quantity: string, name = 'Stock') => addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name, quantity });

describe('POST /inventory-items/{id}/adjustments (security)', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing changes', async () => {
    const item = await legacyItem('5');
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked])
      expectError(await unchangedAdjust(token, item.id, { delta: '-1' }), 401, 'unauthorized');
  });

  it('org A tokens get 404 for org B items and instances, which keep their quantities', async () => {
    const b = h.b;
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      expectError(await unchangedAdjust(token, b.legacyLab.itemId, { delta: '-1' }), 404, 'not_found');
      expectError(
        await unchangedAdjust(token, b.migratedLab.itemId, { delta: '-0.1', instance_id: b.migratedLab.instanceIds[0] }),
        404,
        'not_found',
      );
    }
    // An org B instance through an org A item is not found either.
    expectError(
      await unchangedAdjust(h.a.admin.token, h.a.migratedLab.itemId, { delta: '1', instance_id: b.migratedLab.instanceIds[0] }),
      404,
      'not_found',
    );
    expect((await getItemJson(h, b.admin.token, b.legacyLab.itemId)).body.quantity).toBe('3');
    expect((await getItemJson(h, b.admin.token, b.migratedLab.itemId)).body.quantity).toBe('0.3');
  });

  it('the member gets 404 for items of labs they do not belong to; the outsider for every item', async () => {
    const hiddenLegacy = await addItem(h, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Hidden', quantity: '5' });
    const lab = await createLab(h.deps.db, h.a.admin.actor, {
      organizationId: h.a.orgId,
      name: 'Hidden migrated lab',
      usesInstances: true,
    });
    const hiddenMigrated = await addItem(h, h.a.admin.actor, { labId: lab.id, name: 'Hidden aliquots' }, [{ quantity: '5' }]);
    expectError(await unchangedAdjust(h.a.member.token, hiddenLegacy.id, { delta: '-1' }), 404, 'not_found');
    expectError(
      await unchangedAdjust(h.a.member.token, hiddenMigrated.id, { delta: '-1', instance_id: hiddenMigrated.instances[0]!.id }),
      404,
      'not_found',
    );
    const visible = await legacyItem('5');
    for (const id of [hiddenLegacy.id, visible.id])
      expectError(await unchangedAdjust(h.a.outsider.token, id, { delta: '-1' }), 404, 'not_found');
  });
});
