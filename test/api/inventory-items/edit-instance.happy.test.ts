// PATCH /inventory-items/{itemId}/instances/{itemInstanceId}: docs/product.md §5 (edit an instance of a migrated lab's item).
// Every change: the full item back, a new ETag, history, and one inventory-item.updated (§7).

import { describe, expect, it } from 'vitest';
import { instanceUrl, itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { getItemJson } from './_helpers.js';

const h = useHarness();
const { edit, unchanged, changesOf, migratedItem, expectChange } = itemFixture(h);

describe('PATCH /inventory-items/{itemId}/instances/{itemInstanceId} (happy)', () => {
  it('edit: quantity, lot, expiry and location change; one history row per field; the sum follows', async () => {
    const item = await migratedItem();
    const [first, second] = item.instanceIds as [string, string];
    const body = await expectChange(
      () =>
        edit(h.a.admin.token, item.id, second, {
          quantity: '0.05',
          lot_number: 'Z',
          expiration_date: '2029-09-09',
          location_id: h.a.migratedLab.locationIds[0],
        }),
      item.id,
      200,
    );
    expect(body.quantity).toBe('1.3');
    expect(body.instances).toEqual([
      {
        id: first,
        quantity: '1.25',
        lot_number: 'A',
        expiration_date: '2027-03-01',
        location: { name: 'Shelf 2', pathNames: ['Room 101', 'Freezer A', 'Shelf 2'] },
      },
      {
        id: second,
        quantity: '0.05',
        lot_number: 'Z',
        expiration_date: '2029-09-09',
        location: { name: 'Room 101', pathNames: ['Room 101'] },
      },
    ]);
    const rows = await changesOf(item.id);
    expect(rows.map((r) => [r.field, r.instance_id, r.old_value, r.new_value]).sort()).toEqual([
      ['instance.expiration_date', second, null, '2029-09-09'],
      ['instance.location_id', second, null, h.a.migratedLab.locationIds[0]],
      ['instance.lot_number', second, null, 'Z'],
      ['instance.quantity', second, '0.75', '0.05'],
    ]);
  });

  it('edit: null clears lot, expiry and location', async () => {
    const item = await migratedItem();
    const body = await expectChange(
      () => edit(h.a.admin.token, item.id, item.instanceIds[0]!, { lot_number: null, expiration_date: null, location_id: null }),
      item.id,
      200,
    );
    expect(body.instances[0]).toEqual({
      id: item.instanceIds[0],
      quantity: '1.25',
      lot_number: null,
      expiration_date: null,
      location: null,
    });
  });

  it('edit without a change (empty body or same values): 200, same ETag, no history, no event', async () => {
    const item = await migratedItem();
    const before = await getItemJson(h, h.a.admin.token, item.id);
    for (const payload of [{}, { quantity: '1.25', lot_number: 'A', location_id: h.a.migratedLab.locationIds[2] }]) {
      const res = await unchanged(h.a.admin.token, { method: 'PATCH', url: instanceUrl(item.id, item.instanceIds[0]!), payload });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual(before.body);
      expect(res.headers.etag).toBe(before.etag);
    }
  });
});
