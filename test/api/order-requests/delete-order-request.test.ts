// DELETE /order-requests/{id}: docs/product.md §4 (by the requester or an org admin, not once RECEIVED) and §7
// (order-request.deleted with its last state).
import { describe, expect, it } from 'vitest';
import { revokedToken } from '../../helpers/data.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { UNKNOWN_ID } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';
import {
  createOrder,
  eventsOfType,
  expectEnvelope,
  historyRows,
  orderBody,
  orderEvents,
  orderIn,
  orderRow,
  type Status,
} from './_helpers.js';

const h = useHarness();

const del = (token: string | null, id: string) => h.call(token, { method: 'DELETE', url: `/order-requests/${id}` });

async function getOrder(id: string, token = h.a.admin.token): Promise<any> {
  const res = await h.call(token, { method: 'GET', url: `/order-requests/${id}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function state() {
  const db = h.deps.db;
  const [orders, history, items, instances, events] = await Promise.all([
    db.selectFrom('order_requests').selectAll().orderBy('id').execute(),
    db.selectFrom('order_request_events').selectAll().orderBy('id').execute(),
    db.selectFrom('inventory_items').selectAll().orderBy('id').execute(),
    db.selectFrom('inventory_item_instances').selectAll().orderBy('id').execute(),
    db.selectFrom('events').select(['id']).orderBy('id').execute(),
  ]);
  return { orders, history, items, instances, events: events.map((e) => e.id) };
}

async function unchanged(token: string | null, id: string) {
  const before = await state();
  const res = await del(token, id);
  expect(await state()).toEqual(before);
  return res;
}

/** Deletes and checks: 204, gone from GET and the list, its history gone, exactly one deleted event = last state. */
async function expectDeleted(token: string, id: string): Promise<void> {
  const last = await getOrder(id);
  const allBefore = (await eventsOfType(h, 'com.labstock.order-request.deleted')).length;
  const res = await del(token, id);
  expect(res.statusCode, res.body).toBe(204);
  expect(res.body).toBe('');
  expectError(await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${id}` }), 404, 'not_found');
  const list = await h.call(h.a.admin.token, { method: 'GET', url: '/order-requests?per_page=100' });
  expect(list.json().map((o: any) => o.id)).not.toContain(id);
  expect(await orderRow(h, id)).toBeUndefined();
  expect(await historyRows(h, id)).toEqual([]);
  expect(await eventsOfType(h, 'com.labstock.order-request.deleted')).toHaveLength(allBefore + 1);
  const events = await orderEvents(h, 'deleted', id);
  expect(events).toHaveLength(1);
  expectEnvelope(events[0]!, 'com.labstock.order-request.deleted', 'order_request');
  expect(events[0]!.event.data.order_request).toEqual(last);
  expect(events[0]!.event.data.order_request.lab.uses_instances).toBe(last.lab.uses_instances);
  expect(events[0]!.row.lab_id).toBe(last.lab.id);
  expect(events[0]!.row.organization_id).toBe(h.a.orgId);
}

describe('happy', () => {
  it('the requester (a member) deletes their own CREATED request', async () => {
    const order = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab, { notes: 'not needed after all' }));
    await expectDeleted(h.a.member.token, order.id);
  });

  it("an org admin deletes a member's request", async () => {
    const order = await orderIn(h, h.a.member.token, h.a.migratedLab, 'APPROVED');
    await expectDeleted(h.a.admin.token, order.id);
  });

  it.each<Status>(['APPROVED', 'ORDERED', 'BACKORDERED', 'CANCELLED'])('a request in %s can be deleted', async (status) => {
    const order = await orderIn(h, h.a.admin.token, h.a.legacyLab, status);
    expect(order.status).toBe(status);
    await expectDeleted(h.a.admin.token, order.id);
  });

  it('deleting does not touch other requests or the inventory', async () => {
    const keep = await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab));
    const gone = await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab));
    const keepBefore = await getOrder(keep.id);
    const items = await h.deps.db.selectFrom('inventory_items').selectAll().orderBy('id').execute();
    expect((await del(h.a.admin.token, gone.id)).statusCode).toBe(204);
    expect(await getOrder(keep.id)).toEqual(keepBefore);
    expect(await h.deps.db.selectFrom('inventory_items').selectAll().orderBy('id').execute()).toEqual(items);
  });
});

describe('errors', () => {
  it('409 conflict once RECEIVED; the request, its history and the inventory stay; no event', async () => {
    const order = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'RECEIVED');
    const before = await getOrder(order.id);
    const body = expectError(await unchanged(h.a.admin.token, order.id), 409, 'conflict');
    expect(body.message).toMatch(/received/i);
    expect(await getOrder(order.id)).toEqual(before);
    expect(await orderEvents(h, 'deleted', order.id)).toEqual([]);
    // Not even the requester who is also an admin, nor after asking twice.
    expectError(await unchanged(h.a.admin.token, order.id), 409, 'conflict');
  });

  it("403 forbidden when a member deletes someone else's request in their own lab; nothing changes", async () => {
    const order = await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab));
    // The member can see it...
    await getOrder(order.id, h.a.member.token);
    // ...but did not request it and is not an admin.
    expectError(await unchanged(h.a.member.token, order.id), 403, 'forbidden');
    expect(await orderRow(h, order.id)).toBeDefined();
  });

  it('a second delete is 404 and emits nothing more', async () => {
    const order = await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab));
    expect((await del(h.a.admin.token, order.id)).statusCode).toBe(204);
    expectError(await unchanged(h.a.admin.token, order.id), 404, 'not_found');
    expect(await orderEvents(h, 'deleted', order.id)).toHaveLength(1);
  });

  it('5 concurrent deletes of one request: exactly one 204, the others 404, and exactly one deleted event', async () => {
    const order = await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab));
    const results = await Promise.all(Array.from({ length: 5 }, () => del(h.a.admin.token, order.id)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([204, 404, 404, 404, 404]);
    expect(await orderRow(h, order.id)).toBeUndefined();
    expect(await orderEvents(h, 'deleted', order.id)).toHaveLength(1);
  });

  it('422 naming id for a non-UUID id; 404 for an unknown one', async () => {
    expectValidation(await unchanged(h.a.admin.token, 'abc'), 'id');
    expectError(await unchanged(h.a.admin.token, UNKNOWN_ID), 404, 'not_found');
  });
});

describe('security', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing changes', async () => {
    const order = await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab));
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) expectError(await unchanged(token, order.id), 401, 'unauthorized');
  });

  it('org A tokens get 404 for org B requests (even the admin), which stay', async () => {
    const bOrder = await createOrder(h, h.b.admin.token, orderBody(h.b.legacyLab));
    const bMemberOrder = await createOrder(h, h.b.member.token, orderBody(h.b.migratedLab));
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const id of [bOrder.id, bMemberOrder.id]) expectError(await unchanged(token, id), 404, 'not_found');
    }
    expect((await h.call(h.b.admin.token, { method: 'GET', url: `/order-requests/${bOrder.id}` })).statusCode).toBe(200);
  });

  it('the member gets 404 (not 403) for a request of the lab they do not belong to; the outsider for every request', async () => {
    const hidden = await createOrder(h, h.a.admin.token, orderBody(h.a.otherLab));
    expectError(await unchanged(h.a.member.token, hidden.id), 404, 'not_found');
    const own = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab));
    for (const id of [hidden.id, own.id]) expectError(await unchanged(h.a.outsider.token, id), 404, 'not_found');
  });
});
