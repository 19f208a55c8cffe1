// DELETE /inventory-items/{id}: docs/product.md §5 (delete items) and §7 (inventory-item.deleted with the last state,
// instances included).
import { describe, expect, it } from 'vitest';
import { itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, dbState, eventsAfter, expectError, expectValidation, getItemJson, UNKNOWN_ID } from './_helpers.js';

const h = useHarness();
const { unchangedBy, deleteItem: del, expectDeleted } = itemFixture(h);

const unchanged = (token: string | null, id: string, headers: Record<string, string> = {}) => unchangedBy(() => del(token, id, headers));

describe('DELETE /inventory-items/{id} (errors)', () => {
  it('412 precondition_failed for a stale If-Match; the item stays', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Guarded', quantity: '1' });
    const { etag } = await getItemJson(h, h.a.admin.token, item.id);
    const put = await h.call(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${item.id}`, payload: { quantity: '2' } });
    expect(put.statusCode).toBe(200);
    expectError(await unchanged(h.a.admin.token, item.id, { 'if-match': etag! }), 412, 'precondition_failed');
    expectError(await unchanged(h.a.admin.token, item.id, { 'if-match': '"v999"' }), 412, 'precondition_failed');
    expect((await getItemJson(h, h.a.admin.token, item.id)).status).toBe(200);
  });

  it('a second delete is 404 and emits nothing', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Twice' });
    await expectDeleted(h.a.admin.token, item.id);
    expectError(await unchanged(h.a.admin.token, item.id), 404, 'not_found');
  });

  it('5 concurrent deletes of one item: exactly one 204, the others 404, and exactly one deleted event', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name: 'Raced' }, [{ quantity: '1' }]);
    const eventsBefore = (await dbState(h)).events;
    const results = await Promise.all(Array.from({ length: 5 }, () => del(h.a.admin.token, item.id)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([204, 404, 404, 404, 404]);
    const events = await eventsAfter(h, eventsBefore);
    expect(events.map((e) => e.type)).toEqual(['com.labstock.inventory-item.deleted']);
  });

  it('422 naming id for a non-UUID id; 404 for an unknown item', async () => {
    expectValidation(await unchanged(h.a.admin.token, 'abc'), 'id');
    expectError(await unchanged(h.a.admin.token, UNKNOWN_ID), 404, 'not_found');
  });
});
