// DELETE /inventory-items/{id}: docs/product.md §5 (delete items) and §7 (inventory-item.deleted with the last state,
// instances included).
import { describe, expect, it } from 'vitest';
import { itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, archiveInstance, getItemJson } from './_helpers.js';

const h = useHarness();
const { expectDeleted } = itemFixture(h);

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
