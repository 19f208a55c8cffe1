// POST /inventory-items/{id}/instances: docs/product.md §5 (add an instance to a migrated lab's item; legacy lab 409).
// Every change: the full item back, a new ETag, history, and one inventory-item.updated (§7).

import { describe, expect, it } from 'vitest';
import { itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { getItemJson, memberSummary } from './_helpers.js';

const h = useHarness();
const { add, changesOf, migratedItem, expectChange } = itemFixture(h);

describe('POST /inventory-items/{id}/instances (happy)', () => {
  it('add: 201 with the full item; the new instance is last, with its location path; quantity is the exact sum', async () => {
    const item = await migratedItem();
    const body = await expectChange(
      () =>
        add(h.a.member.token, item.id, {
          quantity: '0.1',
          lot_number: 'B',
          expiration_date: '2028-01-31',
          location_id: h.a.migratedLab.locationIds[1],
        }),
      item.id,
      201,
    );
    expect(body.quantity).toBe('2.1');
    expect(body.instances.map((i: any) => i.id).slice(0, 2)).toEqual(item.instanceIds);
    const added = body.instances[2];
    expect(added).toEqual({
      id: added.id,
      quantity: '0.1',
      lot_number: 'B',
      expiration_date: '2028-01-31',
      location: { name: 'Freezer A', pathNames: ['Room 101', 'Freezer A'] },
    });
    expect(item.instanceIds).not.toContain(added.id);
    expect(body.updated_by).toEqual(memberSummary(h.a, 'A'));
    const rows = await changesOf(item.id);
    expect(rows.map((r) => [r.field, r.instance_id, r.old_value, r.new_value, r.user_id])).toEqual([
      ['instance.added', added.id, null, '0.1', h.a.member.id],
    ]);
  });

  it('add: only quantity is required; If-Match with the current ETag is honoured', async () => {
    const item = await migratedItem();
    const { etag } = await getItemJson(h, h.a.admin.token, item.id);
    const body = await expectChange(() => add(h.a.admin.token, item.id, { quantity: '3' }, { 'if-match': etag! }), item.id, 201);
    expect(body.instances[2]).toMatchObject({ quantity: '3', lot_number: null, expiration_date: null, location: null });
    expect(body.quantity).toBe('5');
  });
});
