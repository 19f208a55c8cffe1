// POST /inventory-items/{itemId}/instances/{itemInstanceId}/archive: docs/product.md §5 (archive an instance).

import { describe, expect, it } from 'vitest';
import { instanceUrl, itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { expectError, expectValidation, UNKNOWN_ID } from './_helpers.js';

const h = useHarness();
const { archive, unchanged, migratedItem, staleItem } = itemFixture(h);

describe('POST /inventory-items/{itemId}/instances/{itemInstanceId}/archive (errors)', () => {
  it('a second archive is 404; the archived instance can be neither edited nor archived', async () => {
    const item = await migratedItem();
    const archived = item.instanceIds[0]!;
    expect((await archive(h.a.admin.token, item.id, archived)).statusCode).toBe(200);
    expectError(await unchanged(h.a.admin.token, { method: 'POST', url: `${instanceUrl(item.id, archived)}/archive` }), 404, 'not_found');
    expectError(
      await unchanged(h.a.admin.token, { method: 'PATCH', url: instanceUrl(item.id, archived), payload: { quantity: '9' } }),
      404,
      'not_found',
    );
  });

  it('404 for an unknown instance, an instance of another item, and an instance id on a legacy item', async () => {
    const item = await migratedItem();
    const other = await migratedItem('Other vials');
    for (const [itemId, instanceId] of [
      [item.id, UNKNOWN_ID],
      [item.id, other.instanceIds[0]!],
      [h.a.legacyLab.itemId, item.instanceIds[0]!],
    ] as const) {
      expectError(
        await unchanged(h.a.admin.token, { method: 'POST', url: `${instanceUrl(itemId, instanceId)}/archive` }),
        404,
        'not_found',
      );
    }
  });

  it('412 precondition_failed for a stale If-Match; nothing changes', async () => {
    const { item, headers } = await staleItem();
    expectError(
      await unchanged(h.a.admin.token, { method: 'POST', url: `${instanceUrl(item.id, item.instanceIds[1]!)}/archive`, headers }),
      412,
      'precondition_failed',
    );
  });

  it('422 naming itemId for a non-UUID item id', async () => {
    const item = await migratedItem();
    expectValidation(
      await unchanged(h.a.admin.token, { method: 'POST', url: `${instanceUrl('abc', item.instanceIds[0]!)}/archive` }),
      'itemId',
    );
  });
});
