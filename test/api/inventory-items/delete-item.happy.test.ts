// DELETE /inventory-items/{id}: docs/product.md §5 (delete items) and §7 (inventory-item.deleted with the last state,
// instances included).
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, archiveInstance, dbState, eventsAfter, getItemJson } from './_helpers.js';

const h = useHarness();

const del = (token: string | null, id: string, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'DELETE', url: `/inventory-items/${id}`, headers });

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

describe('DELETE /inventory-items/{id} (happy)', () => {
  it('legacy item: 204; gone; inventory-item.deleted carries the last state (after an edit), instances []', async () => {
    const item = await addItem(h, h.a.admin.actor, {
      labId: h.a.legacyLab.id,
      name: 'Doomed',
      quantity: '2',
      lotNumber: 'L',
      locationName: 'Fridge',
    });
    const edit = await h.call(h.a.admin.token, {
      method: 'PATCH',
      url: `/inventory-items/${item.id}`,
      payload: { name: 'Doomed (edited)' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const last = await expectDeleted(h.a.admin.token, item.id);
    expect(last).toMatchObject({
      name: 'Doomed (edited)',
      quantity: '2',
      lot_number: 'L',
      location: { name: 'Fridge' },
      instances: [],
      lab: { uses_instances: false },
    });
  });

  it('migrated item: the event lists its active instances (not archived ones); all instance rows go', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name: 'Doomed vials' }, [
      { quantity: '1.5', lotNumber: 'A', locationId: h.a.migratedLab.locationIds[2] },
      { quantity: '2' },
      { quantity: '9' },
    ]);
    await archiveInstance(h, item.instances[2]!.id);
    const last = await expectDeleted(h.a.admin.token, item.id);
    expect(last.quantity).toBe('3.5');
    expect(last.instances.map((i: any) => i.id)).toEqual([item.instances[0]!.id, item.instances[1]!.id]);
    expect(last.instances[0].location).toEqual({ name: 'Shelf 2', pathNames: ['Room 101', 'Freezer A', 'Shelf 2'] });
    expect(last.lab.uses_instances).toBe(true);
  });

  it('the seeded items (with history rows) can be deleted; other items are untouched', async () => {
    const put = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${h.a.legacyLab.itemId}`,
      payload: { quantity: '8' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const otherBefore = await getItemJson(h, h.a.admin.token, h.a.migratedLab.itemId);
    await expectDeleted(h.a.admin.token, h.a.legacyLab.itemId);
    const otherAfter = await getItemJson(h, h.a.admin.token, h.a.migratedLab.itemId);
    expect([otherAfter.body, otherAfter.etag]).toEqual([otherBefore.body, otherBefore.etag]);
  });

  it('If-Match with the current ETag deletes', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Matched' });
    const { etag } = await getItemJson(h, h.a.admin.token, item.id);
    await expectDeleted(h.a.admin.token, item.id, { 'if-match': etag! });
  });

  it('a member deletes an item of their lab', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name: 'Member deletes' }, [{ quantity: '1' }]);
    await expectDeleted(h.a.member.token, item.id);
  });
});
