// POST /inventory-items/{id}/instances: docs/product.md §5 (add an instance to a migrated lab's item; legacy lab 409).

import { describe, it } from 'vitest';
import { instancesUrl, itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { expectError, expectValidation, UNKNOWN_ID } from './_helpers.js';

const h = useHarness();
const { unchanged, migratedItem, staleItem } = itemFixture(h);

describe('POST /inventory-items/{id}/instances (errors)', () => {
  it('add to a legacy lab item: 409 conflict; nothing written', async () => {
    const res = await unchanged(h.a.admin.token, { method: 'POST', url: instancesUrl(h.a.legacyLab.itemId), payload: { quantity: '1' } });
    expectError(res, 409, 'conflict');
  });

  it('404 for an unknown item', async () => {
    expectError(
      await unchanged(h.a.admin.token, { method: 'POST', url: instancesUrl(UNKNOWN_ID), payload: { quantity: '1' } }),
      404,
      'not_found',
    );
  });

  it('404 for a location of another lab or an unknown location', async () => {
    const item = await migratedItem();
    for (const location_id of [h.b.migratedLab.locationIds[0]!, UNKNOWN_ID]) {
      expectError(
        await unchanged(h.a.admin.token, { method: 'POST', url: instancesUrl(item.id), payload: { quantity: '1', location_id } }),
        404,
        'not_found',
      );
    }
  });

  it('412 precondition_failed for a stale If-Match; nothing changes', async () => {
    const { item, headers } = await staleItem();
    expectError(
      await unchanged(h.a.admin.token, { method: 'POST', url: instancesUrl(item.id), payload: { quantity: '1' }, headers }),
      412,
      'precondition_failed',
    );
  });

  it('422 naming the field for invalid or missing values and unknown fields', async () => {
    const item = await migratedItem();
    const a = (payload: unknown) => unchanged(h.a.admin.token, { method: 'POST', url: instancesUrl(item.id), payload: payload as any });
    expectValidation(await a({}), 'quantity');
    for (const quantity of ['-1', 'abc', 1, null]) {
      expectValidation(await a({ quantity }), 'quantity');
    }
    expectValidation(await a({ quantity: '1', expiration_date: '2027-02-30' }), 'expiration_date');
    expectValidation(await a({ quantity: '1', id: UNKNOWN_ID }), 'id');
    expectValidation(await a({ quantity: '1', location: { name: 'Shelf' } }), 'location');
  });
});
