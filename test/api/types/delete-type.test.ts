// DELETE /types/{id}: PRODUCT §5 (types delete) and §7 (type.deleted with its last state); 409 while in use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addItem, revokedToken } from '../../helpers/data.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { eventsOfType, expectEnvelope } from '../../helpers/events.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { createOrder, orderBody } from '../../helpers/orders.js';
import { labJson, UNKNOWN_ID } from '../../helpers/shapes.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const del = (token: string | null, id: string) => h.call(token, { method: 'DELETE', url: `/types/${id}` });

async function newType(labId: string, name: string, token = h.a.admin.token): Promise<any> {
  const res = await h.call(token, { method: 'POST', url: '/types', payload: { lab_id: labId, name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function state() {
  const [types, items, orders, events] = await Promise.all([
    h.deps.db.selectFrom('types').selectAll().orderBy('id').execute(),
    h.deps.db.selectFrom('inventory_items').selectAll().orderBy('id').execute(),
    h.deps.db.selectFrom('order_requests').selectAll().orderBy('id').execute(),
    h.deps.db.selectFrom('events').select(['id']).orderBy('id').execute(),
  ]);
  return { types, items, orders, events: events.map((e) => e.id) };
}

async function unchanged(token: string | null, id: string) {
  const before = await state();
  const res = await del(token, id);
  expect(await state()).toEqual(before);
  return res;
}

const deletedEventsFor = async (typeId: string) =>
  (await eventsOfType(h, 'com.labstock.type.deleted')).filter((e) => e.event.data?.type?.id === typeId);
const typeRow = (id: string) => h.deps.db.selectFrom('types').selectAll().where('id', '=', id).executeTakeFirst();

describe('happy', () => {
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

  it('a member deletes an unused type of their lab', async () => {
    const type = await newType(h.a.legacyLab.id, 'Member made', h.a.member.token);
    const res = await del(h.a.member.token, type.id);
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

describe('errors', () => {
  it('409 conflict while an inventory item uses it (the seeded types); nothing changes', async () => {
    for (const id of [h.a.legacyLab.typeId, h.a.migratedLab.typeId]) {
      const body = expectError(await unchanged(h.a.admin.token, id), 409, 'conflict');
      expect(body.message).toMatch(/item/);
      expect(await deletedEventsFor(id)).toEqual([]);
    }
  });

  it('409 while an item created through the service uses it', async () => {
    const type = await newType(h.a.migratedLab.id, 'In stock');
    await addItem(h, h.a.admin.id, { labId: h.a.migratedLab.id, name: 'Stocked', typeId: type.id });
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

describe('security', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing changes', async () => {
    const type = await newType(h.a.legacyLab.id, 'Guarded');
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) expectError(await unchanged(token, type.id), 401, 'unauthorized');
    expect(await typeRow(type.id)).toBeDefined();
  });

  it('org A tokens get 404 for an unused org B type, which stays', async () => {
    const res = await h.call(h.b.admin.token, { method: 'POST', url: '/types', payload: { lab_id: h.b.legacyLab.id, name: 'B only' } });
    expect(res.statusCode, res.body).toBe(201);
    const bType = res.json();
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      expectError(await unchanged(token, bType.id), 404, 'not_found');
    }
    expect(await typeRow(bType.id)).toBeDefined();
    expect(await deletedEventsFor(bType.id)).toEqual([]);
  });

  it("the member gets 404 (not 409) for the other lab's type; the outsider for an unused type of the member's lab", async () => {
    const unused = await newType(h.a.otherLab.id, 'Hidden unused');
    expectError(await unchanged(h.a.member.token, unused.id), 404, 'not_found');
    expectError(await unchanged(h.a.member.token, h.a.otherLab.typeId), 404, 'not_found');
    const legacyUnused = await newType(h.a.legacyLab.id, 'Outsider target');
    expectError(await unchanged(h.a.outsider.token, legacyUnused.id), 404, 'not_found');
    expect(await typeRow(unused.id)).toBeDefined();
    expect(await typeRow(legacyUnused.id)).toBeDefined();
  });
});
