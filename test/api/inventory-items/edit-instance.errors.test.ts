// PATCH /inventory-items/{itemId}/instances/{itemInstanceId}: docs/product.md §5 (edit an instance of a migrated lab's item).

import { describe, it } from 'vitest';
import { instanceUrl, itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { expectError, expectValidation, UNKNOWN_ID } from './_helpers.js';

const h = useHarness();
const { unchanged, migratedItem, staleItem } = itemFixture(h);

describe('PATCH /inventory-items/{itemId}/instances/{itemInstanceId} (errors)', () => {
  it('404 for an unknown instance, an instance of another item, and an instance id on a legacy item', async () => {
    const item = await migratedItem();
    const other = await migratedItem('Other vials');
    for (const [itemId, instanceId] of [
      [item.id, UNKNOWN_ID],
      [item.id, other.instanceIds[0]!],
      [h.a.legacyLab.itemId, item.instanceIds[0]!],
    ] as const) {
      expectError(
        await unchanged(h.a.admin.token, { method: 'PATCH', url: instanceUrl(itemId, instanceId), payload: { quantity: '1' } }),
        404,
        'not_found',
      );
    }
  });

  it('404 for a location of another lab or an unknown location', async () => {
    const item = await migratedItem();
    for (const location_id of [h.b.migratedLab.locationIds[0]!, UNKNOWN_ID]) {
      expectError(
        await unchanged(h.a.admin.token, { method: 'PATCH', url: instanceUrl(item.id, item.instanceIds[1]!), payload: { location_id } }),
        404,
        'not_found',
      );
    }
  });

  it('412 precondition_failed for a stale If-Match; nothing changes', async () => {
    const { item, headers } = await staleItem();
    expectError(
      await unchanged(h.a.admin.token, {
        method: 'PATCH',
        url: instanceUrl(item.id, item.instanceIds[1]!),
        payload: { quantity: '5' },
        headers,
      }),
      412,
      'precondition_failed',
    );
  });

  it('422 naming the field for invalid values, unknown fields and a non-UUID instance id', async () => {
    const item = await migratedItem();
    const e = (payload: unknown) =>
      unchanged(h.a.admin.token, { method: 'PATCH', url: instanceUrl(item.id, item.instanceIds[0]!), payload: payload as any });
    for (const quantity of ['-1', 'abc', 1, null]) {
      expectValidation(await e({ quantity }), 'quantity');
    }
    expectValidation(await e({ location_id: 'shelf' }), 'location_id');
    expectValidation(await e({ archived: true }), 'archived');
    expectValidation(
      await unchanged(h.a.admin.token, { method: 'PATCH', url: instanceUrl(item.id, 'abc'), payload: {} }),
      'itemInstanceId',
    );
  });
});
