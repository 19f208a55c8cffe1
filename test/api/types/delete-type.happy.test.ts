// DELETE /types/{id}: docs/product.md §5 (types delete) and §7 (type.deleted with its last state); 409 while in use.
import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { eventsOfType, expectEnvelope } from '../../helpers/events.js';
import { createOrder, orderBody } from '../../helpers/orders.js';
import { labJson } from '../../helpers/shapes.js';
import { typeFixture } from '../../helpers/types.js';
import { useHarness } from '../../helpers/use-harness.js';
import { legacyLabManager } from './_managers.js';

const h = useHarness();
const { del, newType, unchangedDel: unchanged, deletedEventsFor, typeRow } = typeFixture(h);

describe('DELETE /types/{id} (happy)', () => {
  it('204 with no body; the type is gone; exactly one type.deleted with its last state (including the lab)', async () => {
    const type = await newType(h.a.migratedLab.id, 'Disposable');
    const allBefore = (await eventsOfType(h, 'com.labstock.type.deleted')).length;
    const res = await del(h.a.admin.token, type.id);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect(await typeRow(type.id)).toBeUndefined();
    const list = await h.call(h.a.admin.token, { method: 'GET', url: `/types?lab_id=${h.a.migratedLab.id}` });
    expect(list.json().map((t: any) => t.id)).not.toContain(type.id);

    expect(await eventsOfType(h, 'com.labstock.type.deleted')).toHaveLength(allBefore + 1);
    const events = await deletedEventsFor(type.id);
    expect(events).toHaveLength(1);
    expectEnvelope(events[0]!, 'com.labstock.type.deleted', 'type');
    expect(events[0]!.event.data.type).toEqual({
      id: type.id,
      name: 'Disposable',
      lab: labJson(h.a.migratedLab.id, 'Migrated lab A', h.a, 'A', true),
    });
    expect(events[0]!.row.lab_id).toBe(h.a.migratedLab.id);
    expect(events[0]!.row.organization_id).toBe(h.a.orgId);
  });

  it('the deleted event carries the name after the last rename', async () => {
    const type = await newType(h.a.legacyLab.id, 'Old name');
    const put = await h.call(h.a.admin.token, { method: 'PUT', url: `/types/${type.id}`, payload: { name: 'New name' } });
    expect(put.statusCode, put.body).toBe(200);
    expect((await del(h.a.admin.token, type.id)).statusCode).toBe(204);
    const events = await deletedEventsFor(type.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.event.data.type.name).toBe('New name');
  });

  it('a second delete is 404 and emits nothing more', async () => {
    const type = await newType(h.a.otherLab.id, 'Once');
    expect((await del(h.a.admin.token, type.id)).statusCode).toBe(204);
    expectError(await unchanged(h.a.admin.token, type.id), 404, 'not_found');
    expect(await deletedEventsFor(type.id)).toHaveLength(1);
  });

  it("a lab's manager (not an org admin) deletes an unused type of their lab, one they made", async () => {
    const manager = await legacyLabManager(h);
    const type = await newType(h.a.legacyLab.id, 'Manager made', manager.token);
    const res = await del(manager.token, type.id);
    expect(res.statusCode, res.body).toBe(204);
    expect(await deletedEventsFor(type.id)).toHaveLength(1);
  });

  it('once the only order request using it is deleted, the type can be deleted', async () => {
    const type = await newType(h.a.legacyLab.id, 'Briefly used');
    const order = await createOrder(h, h.a.admin.token, orderBody({ id: h.a.legacyLab.id, typeId: type.id }));
    expectError(await unchanged(h.a.admin.token, type.id), 409, 'conflict');
    const delOrder = await h.call(h.a.admin.token, { method: 'DELETE', url: `/order-requests/${order.id}` });
    expect(delOrder.statusCode, delOrder.body).toBe(204);
    expect((await del(h.a.admin.token, type.id)).statusCode).toBe(204);
    expect(await deletedEventsFor(type.id)).toHaveLength(1);
  });
});
