// POST /inventory-items/{id}/adjustments {delta, note?, instance_id?}: docs/product.md §5 (relative adjustments that refuse
// to go below zero), §2 (exact decimal arithmetic; never lose an update under concurrency), §7 (one event each).

import { describe, expect, it } from 'vitest';
import { itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, archiveInstance, expectError, expectValidation, UNKNOWN_ID } from './_helpers.js';

const h = useHarness();
const { unchanged } = itemFixture(h);

const url = (itemId: string) => `/inventory-items/${itemId}/adjustments`;

const unchangedAdjust = (token: string | null, itemId: string, payload: unknown) =>
  unchanged(token, { method: 'POST', url: url(itemId), payload: payload as any });

const legacyItem = (quantity: string, name = 'Stock') => addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name, quantity });
const migratedItem = (quantities: string[], name = 'Aliquots') =>
  addItem(
    h,
    h.a.admin.actor,
    { labId: h.a.migratedLab.id, name },
    quantities.map((quantity) => ({ quantity })),
  );

describe('POST /inventory-items/{id}/adjustments (errors)', () => {
  it('below zero: 409 conflict naming the current quantity; nothing changes (legacy and instance)', async () => {
    const item = await legacyItem('0.3');
    const body = expectError(await unchangedAdjust(h.a.admin.token, item.id, { delta: '-0.31' }), 409, 'conflict');
    expect(body.message).toContain('0.3');
    const m = await migratedItem(['1', '100']);
    expectError(await unchangedAdjust(h.a.admin.token, m.id, { delta: '-1.01', instance_id: m.instances[0]!.id }), 409, 'conflict');
  });

  it('migrated item without instance_id: 422 naming instance_id; legacy item with one: 422', async () => {
    const m = await migratedItem(['1']);
    expectValidation(await unchangedAdjust(h.a.admin.token, m.id, { delta: '1' }), 'instance_id');
    const l = await legacyItem('1');
    expectValidation(await unchangedAdjust(h.a.admin.token, l.id, { delta: '1', instance_id: m.instances[0]!.id }), 'instance_id');
  });

  it('404 for an archived instance, an instance of another item, and an unknown one', async () => {
    const m = await migratedItem(['1', '2']);
    const other = await migratedItem(['3']);
    await archiveInstance(h, m.instances[1]!.id);
    for (const instance_id of [m.instances[1]!.id, other.instances[0]!.id, UNKNOWN_ID]) {
      expectError(await unchangedAdjust(h.a.admin.token, m.id, { delta: '1', instance_id }), 404, 'not_found');
    }
  });

  it('422 naming delta when it is zero, missing, not a decimal string or too precise', async () => {
    const item = await legacyItem('5');
    for (const delta of ['0', '-0', '0.000', undefined, '', 'abc', '+1', '1e2', '--1', '1.', 1, -1, null, '0.12345678901']) {
      const payload = delta === undefined ? {} : { delta };
      expectValidation(await unchangedAdjust(h.a.admin.token, item.id, payload), 'delta');
    }
  });

  it('422 naming unknown body fields, a non-string note, and a non-UUID instance_id or item id', async () => {
    const item = await legacyItem('5');
    expectValidation(await unchangedAdjust(h.a.admin.token, item.id, { delta: '1', quantity: '6' }), 'quantity');
    expectValidation(await unchangedAdjust(h.a.admin.token, item.id, { delta: '1', reason: 'x' }), 'reason');
    expectValidation(await unchangedAdjust(h.a.admin.token, item.id, { delta: '1', note: 5 }), 'note');
    expectValidation(await unchangedAdjust(h.a.admin.token, item.id, { delta: '1', instance_id: 'first' }), 'instance_id');
    expectValidation(await unchangedAdjust(h.a.admin.token, 'abc', { delta: '1' }), 'id');
  });

  it('404 for an unknown item', async () => {
    expectError(await unchangedAdjust(h.a.admin.token, UNKNOWN_ID, { delta: '1' }), 404, 'not_found');
  });
});
