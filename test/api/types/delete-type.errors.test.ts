// DELETE /types/{id}: docs/product.md §5 (types delete) and §7 (type.deleted with its last state); 409 while in use.
import { describe, expect, it } from 'vitest';
import { addItem } from '../../helpers/data.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { createOrder, orderBody } from '../../helpers/orders.js';
import { UNKNOWN_ID } from '../../helpers/shapes.js';
import { typeFixture } from '../../helpers/types.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();
const { del, newType, unchangedDel: unchanged, deletedEventsFor, typeRow } = typeFixture(h);

describe('DELETE /types/{id} (errors)', () => {
  it('409 conflict while an inventory item uses it (the seeded types); nothing changes', async () => {
    for (const id of [h.a.legacyLab.typeId, h.a.migratedLab.typeId]) {
      const body = expectError(await unchanged(h.a.admin.token, id), 409, 'conflict');
      expect(body.message).toMatch(/item/);
      expect(await deletedEventsFor(id)).toEqual([]);
    }
  });

  it('409 while an item created through the service uses it', async () => {
    const type = await newType(h.a.migratedLab.id, 'In stock');
    await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name: 'Stocked', typeId: type.id });
    expectError(await unchanged(h.a.admin.token, type.id), 409, 'conflict');
  });

  it('409 while an order request uses it, in any status', async () => {
    const type = await newType(h.a.otherLab.id, 'Ordered things');
    const order = await createOrder(h, h.a.admin.token, orderBody({ id: h.a.otherLab.id, typeId: type.id }));
    const body = expectError(await unchanged(h.a.admin.token, type.id), 409, 'conflict');
    expect(body.message).toMatch(/order request/);
    const cancel = await h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${order.id}`, payload: { status: 'CANCELLED' } });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expectError(await unchanged(h.a.admin.token, type.id), 409, 'conflict');
    expect(await typeRow(type.id)).toBeDefined();
  });

  it('5 concurrent deletes of one type: exactly one 204, the others 404, and exactly one deleted event', async () => {
    const type = await newType(h.a.otherLab.id, 'Raced');
    const results = await Promise.all(Array.from({ length: 5 }, () => del(h.a.admin.token, type.id)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([204, 404, 404, 404, 404]);
    expect(await typeRow(type.id)).toBeUndefined();
    expect(await deletedEventsFor(type.id)).toHaveLength(1);
  });

  it('422 naming id for a non-UUID id; 404 for an unknown one', async () => {
    expectValidation(await unchanged(h.a.admin.token, 'not-a-uuid'), 'id');
    expectError(await unchanged(h.a.admin.token, UNKNOWN_ID), 404, 'not_found');
  });
});
