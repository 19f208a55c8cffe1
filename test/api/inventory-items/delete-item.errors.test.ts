// DELETE /inventory-items/{id}: docs/product.md §5 (delete items) and §7 (inventory-item.deleted with the last state,
// instances included).
import { describe, expect, it } from 'vitest';
import { itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, dbState, eventsAfter, expectError, expectValidation, getItemJson, UNKNOWN_ID } from './_helpers.js';

const h = useHarness();
const { unchangedBy } = itemFixture(h);

const del = (token: string | null, id: string, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'DELETE', url: `/inventory-items/${id}`, headers });

const unchanged = (token: string | null, id: string, headers: Record<string, string> = {}) => unchangedBy(() => del(token, id, headers));

/** Deletes and checks: 204, gone everywhere (row, instances, history), and exactly one deleted event = last state. */
async function expectDeleted(token: string, id: string, headers: Record<string, string> = {}): Promise<any> {
  const last = await getItemJson(h, h.a.admin.token, id);
  expect(last.status).toBe(200);
  const eventsBefore = (await dbState(h)).events;
  const res = await del(token, id, headers);
  expect(res.statusCode, res.body).toBe(204);
  expect(res.body).toBe('');
  expect((await getItemJson(h, h.a.admin.token, id)).status).toBe(404);
  const db = h.deps.db;
  expect(await db.selectFrom('inventory_items').select('id').where('id', '=', id).execute()).toEqual([]);
  expect(await db.selectFrom('inventory_item_instances').select('id').where('item_id', '=', id).execute()).toEqual([]);
  expect(await db.selectFrom('inventory_item_changes').select('id').where('item_id', '=', id).execute()).toEqual([]);
  const events = await eventsAfter(h, eventsBefore);
  expect(events.map((e) => e.type)).toEqual(['com.labstock.inventory-item.deleted']);
  const e = events[0]!;
  expect(e.event).toMatchObject({ specversion: '1.0', id: e.id, source: 'https://labstock.test', datacontenttype: 'application/json' });
  expect(e.event.data).toEqual({ inventory_item: last.body });
  expect(e.lab_id).toBe(last.body.lab.id);
  expect(e.organization_id).toBe(last.body.lab.organization.id);
  return e.event.data.inventory_item;
}

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
