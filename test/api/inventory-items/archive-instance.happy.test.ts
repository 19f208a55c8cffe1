// POST /inventory-items/{itemId}/instances/{itemInstanceId}/archive: docs/product.md §5 (an archived instance leaves
// instances[] and the sum; its row stays). The full item back, a new ETag, history, one inventory-item.updated (§7).

import { describe, expect, it } from 'vitest';
import { itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { getItemJson } from './_helpers.js';

const h = useHarness();
const { archive, changesOf, migratedItem, expectChange } = itemFixture(h);

describe('POST /inventory-items/{itemId}/instances/{itemInstanceId}/archive (happy)', () => {
  it('archive: the instance leaves instances[] and the sum; its row stays with archived_at; history records it', async () => {
    const item = await migratedItem();
    const [first, second] = item.instanceIds as [string, string];
    const body = await expectChange(() => archive(h.a.member.token, item.id, first), item.id, 200);
    expect(body.quantity).toBe('0.75');
    expect(body.instances.map((i: any) => i.id)).toEqual([second]);
    const row = await h.deps.db.selectFrom('inventory_item_instances').selectAll().where('id', '=', first).executeTakeFirstOrThrow();
    expect(row.archived_at).not.toBeNull();
    expect(row.quantity).toBe('1.25');
    const rows = await changesOf(item.id);
    expect(rows.map((r) => [r.field, r.instance_id, r.old_value, r.new_value])).toEqual([['instance.archived', first, '1.25', null]]);
    // The list and the last remaining instance.
    const list = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items?lab_id=${h.a.migratedLab.id}&per_page=100` });
    expect(list.json().find((i: any) => i.id === item.id)).toEqual(body);
    const last = await expectChange(() => archive(h.a.admin.token, item.id, second), item.id, 200);
    expect(last).toMatchObject({ quantity: '0', instances: [] });
  });

  it('archive honours If-Match with the current ETag', async () => {
    const item = await migratedItem();
    const { etag } = await getItemJson(h, h.a.admin.token, item.id);
    await expectChange(() => archive(h.a.admin.token, item.id, item.instanceIds[1]!, { 'if-match': etag! }), item.id, 200);
  });
});
