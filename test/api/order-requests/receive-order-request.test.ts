// POST /order-requests/{id}/receive {lot_number?, expiration_date?, location_id?}: docs/product.md §4 (RECEIVED adds the
// goods to inventory in the same transaction; migrated lab: a new instance with lot, expiry and location).

import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { createLocation } from '../../../src/locations/service.js';
import { revokedToken } from '../../helpers/data.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { expectItemShape, UNKNOWN_ID } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';
import {
  expectEnvelope,
  historyRows,
  itemEvents,
  itemsWith,
  orderEvents,
  orderIn,
  orderRow,
  type Status,
  TRANSITIONS,
  userOf,
} from './_helpers.js';

/** A location in a second migrated lab of org A (not the order's lab). */
let foreignLocationId: string;
const h = useHarness({}, async (h) => {
  const lab = await createLab(h.deps.db, h.a.admin.actor, {
    organizationId: h.a.orgId,
    name: 'Second migrated lab A',
    usesInstances: true,
  });
  foreignLocationId = (await createLocation(h.deps.db, h.a.admin.actor, { labId: lab.id, parentId: null, name: 'Elsewhere' })).id;
});

const receive = (token: string | null, id: string, payload: unknown = {}, extra: Partial<InjectOptions> = {}) =>
  h.call(token, { method: 'POST', url: `/order-requests/${id}/receive`, payload: payload as any, ...extra });

async function getJson(url: string, token = h.a.admin.token): Promise<any> {
  const res = await h.call(token, { method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function state() {
  const db = h.deps.db;
  const [orders, history, items, instances, changes, events] = await Promise.all([
    db.selectFrom('order_requests').selectAll().orderBy('id').execute(),
    db.selectFrom('order_request_events').selectAll().orderBy('id').execute(),
    db.selectFrom('inventory_items').selectAll().orderBy('id').execute(),
    db.selectFrom('inventory_item_instances').selectAll().orderBy('id').execute(),
    db.selectFrom('inventory_item_changes').selectAll().orderBy('id').execute(),
    db.selectFrom('events').select(['id']).orderBy('id').execute(),
  ]);
  return { orders, history, items, instances, changes, events: events.map((e) => e.id) };
}

async function unchanged(token: string | null, id: string, payload: unknown = {}, extra: Partial<InjectOptions> = {}) {
  const before = await state();
  const res = await receive(token, id, payload, extra);
  expect(await state()).toEqual(before);
  return res;
}

const shelfPath = ['Room 101', 'Freezer A', 'Shelf 2'];

describe('happy', () => {
  it('migrated lab, new vendor/catalog: 200 RECEIVED; a new item whose one instance carries lot, expiry and the location path', async () => {
    const order = await orderIn(h, h.a.admin.token, h.a.migratedLab, 'ORDERED', {
      vendor_name: 'NEB',
      catalog_number: 'M0202',
      name: 'T4 ligase',
      quantity: 3,
    });
    const eventsBefore = (await h.deps.db.selectFrom('events').select('id').execute()).length;
    const res = await receive(h.a.admin.token, order.id, {
      lot_number: 'L-778',
      expiration_date: '2028-03-31',
      location_id: h.a.migratedLab.locationIds[2],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: order.id, status: 'RECEIVED', item_name: 'T4 ligase', quantity: '3' });
    expect(await getJson(`/order-requests/${order.id}`)).toEqual(body);

    const rows = await itemsWith(h, h.a.migratedLab.id, 'NEB', 'M0202');
    expect(rows).toHaveLength(1);
    const item = await getJson(`/inventory-items/${rows[0]!.id}`);
    expectItemShape(item);
    expect(item).toMatchObject({
      name: 'T4 ligase',
      quantity: '3',
      lot_number: null,
      expiration_date: null,
      location: null,
      sublocation: null,
      type: { id: h.a.migratedLab.typeId },
      lab: { id: h.a.migratedLab.id, uses_instances: true },
    });
    expect(item.instances).toHaveLength(1);
    expect(item.instances[0]).toMatchObject({
      quantity: '3',
      lot_number: 'L-778',
      expiration_date: '2028-03-31',
      location: { name: 'Shelf 2', pathNames: shelfPath },
    });

    // Exactly: one received event (the response), one inventory-item.created (the item), nothing else.
    const all = await h.deps.db.selectFrom('events').select('id').execute();
    expect(all).toHaveLength(eventsBefore + 2);
    const received = await orderEvents(h, 'received', order.id);
    expect(received).toHaveLength(1);
    expectEnvelope(received[0]!, 'com.labstock.order-request.received', 'order_request');
    expect(received[0]!.event.data.order_request).toEqual(body);
    expect(received[0]!.event.data.order_request.lab.uses_instances).toBe(true);
    const created = await itemEvents(h, 'created', item.id);
    expect(created).toHaveLength(1);
    expect(created[0]!.event.data.inventory_item).toEqual(item);
    expect(await orderEvents(h, 'ordered', order.id)).toHaveLength(1); // from the earlier PUT ORDERED, not from receive

    const history = await historyRows(h, order.id);
    expect(history.map((r) => r.type)).toEqual(['CREATED', 'ORDERED', 'RECEIVED']);
    expect(history[2]!.created_by).toBe(h.a.admin.id);
  });

  it('migrated lab, existing item (same vendor and catalog number): a new instance is added with the details; one inventory-item.updated', async () => {
    const before = await getJson(`/inventory-items/${h.a.migratedLab.itemId}`);
    const order = await orderIn(h, h.a.member.token, h.a.migratedLab, 'ORDERED', {
      vendor_name: 'Abcam',
      catalog_number: 'ab290',
      quantity: 2,
    });
    const updatedBefore = (await itemEvents(h, 'updated', h.a.migratedLab.itemId)).length;
    const res = await receive(h.a.member.token, order.id, {
      lot_number: 'GR-9',
      expiration_date: '2027-12-01',
      location_id: h.a.migratedLab.locationIds[1],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('RECEIVED');

    const after = await getJson(`/inventory-items/${h.a.migratedLab.itemId}`);
    expect(after.quantity).toBe('2.3');
    expect(after.instances).toHaveLength(before.instances.length + 1);
    expect(after.instances.slice(0, before.instances.length)).toEqual(before.instances);
    const added = after.instances[after.instances.length - 1];
    expect(added).toMatchObject({
      quantity: '2',
      lot_number: 'GR-9',
      expiration_date: '2027-12-01',
      location: { name: 'Freezer A', pathNames: ['Room 101', 'Freezer A'] },
    });
    expect(after.updated_by).toEqual(await userOf(h, h.a.member.token));

    const updated = await itemEvents(h, 'updated', h.a.migratedLab.itemId);
    expect(updated).toHaveLength(updatedBefore + 1);
    expect(updated[updated.length - 1]!.event.data.inventory_item).toEqual(after);
    expect(await orderEvents(h, 'received', order.id)).toHaveLength(1);
  });

  it('concurrent receipts of 4 requests for one new product make one item with 4 instances (not 4 items)', async () => {
    const orders = [];
    for (let i = 0; i < 4; i++)
      orders.push(
        await orderIn(h, h.a.admin.token, h.a.migratedLab, 'ORDERED', { vendor_name: 'Promega', catalog_number: 'G7570', quantity: i + 1 }),
      );
    const results = await Promise.all(orders.map((o, i) => receive(h.a.admin.token, o.id, { lot_number: `P-${i}` })));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const rows = await itemsWith(h, h.a.migratedLab.id, 'Promega', 'G7570');
    expect(rows).toHaveLength(1);
    const item = await getJson(`/inventory-items/${rows[0]!.id}`);
    expect(item.quantity).toBe('10');
    expect(item.instances.map((i: any) => i.lot_number).sort()).toEqual(['P-0', 'P-1', 'P-2', 'P-3']);
  });

  it('with an empty body the new instance has no lot, expiry or location', async () => {
    const order = await orderIn(h, h.a.admin.token, h.a.migratedLab, 'ORDERED', { vendor_name: 'Bio-Rad', catalog_number: 'BR-1' });
    const res = await receive(h.a.admin.token, order.id, {});
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await itemsWith(h, h.a.migratedLab.id, 'Bio-Rad', 'BR-1');
    const item = await getJson(`/inventory-items/${row!.id}`);
    expect(item.instances).toEqual([{ id: item.instances[0].id, quantity: '2', lot_number: null, expiration_date: null, location: null }]);
  });

  it('from BACKORDERED as well as from ORDERED', async () => {
    const order = await orderIn(h, h.a.admin.token, h.a.migratedLab, 'BACKORDERED', { vendor_name: 'Qiagen', catalog_number: 'Q-51304' });
    const res = await receive(h.a.admin.token, order.id, { lot_number: 'Q1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('RECEIVED');
    expect(await orderEvents(h, 'received', order.id)).toHaveLength(1);
  });

  it('legacy lab: the existing item\'s quantity grows by the ordered quantity ("3" + 4 = "7"); lot/expiry are accepted', async () => {
    const order = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'ORDERED', {
      vendor_name: 'Sigma',
      catalog_number: 'E7023',
      quantity: 4,
    });
    const res = await receive(h.a.admin.token, order.id, { lot_number: 'LOT-2', expiration_date: '2029-01-01' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('RECEIVED');
    const item = await getJson(`/inventory-items/${h.a.legacyLab.itemId}`);
    expect(item.quantity).toBe('7');
    expect(item.instances).toEqual([]);
    expect(await itemEvents(h, 'updated', h.a.legacyLab.itemId)).toHaveLength(1);
    expect(await orderEvents(h, 'received', order.id)).toHaveLength(1);
  });
});

describe('errors', () => {
  it('legacy lab + location_id: 422 naming location_id; the request stays ORDERED and nothing is written', async () => {
    const order = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'ORDERED');
    expectValidation(await unchanged(h.a.admin.token, order.id, { location_id: h.a.migratedLab.locationIds[0] }), 'location_id');
    expect((await orderRow(h, order.id))!.status).toBe('ORDERED');
  });

  it.each<Status>(['CREATED', 'APPROVED', 'CANCELLED'])('from %s: 409 invalid_transition; nothing changes', async (status) => {
    const order = await orderIn(h, h.a.admin.token, h.a.migratedLab, status);
    const body = expectError(await unchanged(h.a.admin.token, order.id, { lot_number: 'X' }), 409, 'invalid_transition');
    expect(body.message).toContain('RECEIVED');
    expect(body.allowed).toEqual(TRANSITIONS[status]);
    expect((await orderRow(h, order.id))!.status).toBe(status);
  });

  it('already RECEIVED: 409 invalid_transition and no second instance', async () => {
    const order = await orderIn(h, h.a.admin.token, h.a.migratedLab, 'ORDERED', { vendor_name: 'Once', catalog_number: 'O-1' });
    expect((await receive(h.a.admin.token, order.id, {})).statusCode).toBe(200);
    expect(expectError(await unchanged(h.a.admin.token, order.id, {}), 409, 'invalid_transition').allowed).toEqual([]);
    const [row] = await itemsWith(h, h.a.migratedLab.id, 'Once', 'O-1');
    expect((await getJson(`/inventory-items/${row!.id}`)).instances).toHaveLength(1);
  });

  it('5 concurrent receives of one request: exactly one 200, the others 409; one instance, one received event', async () => {
    const order = await orderIn(h, h.a.admin.token, h.a.migratedLab, 'ORDERED', { vendor_name: 'Raced', catalog_number: 'R-1' });
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => receive(h.a.admin.token, order.id, { lot_number: `lot-${i}` })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    const rows = await itemsWith(h, h.a.migratedLab.id, 'Raced', 'R-1');
    expect(rows).toHaveLength(1);
    expect((await getJson(`/inventory-items/${rows[0]!.id}`)).instances).toHaveLength(1);
    expect(await orderEvents(h, 'received', order.id)).toHaveLength(1);
  });

  it('a location of another lab (same org, or org B) or an unknown location: 404; the request stays ORDERED, no item, no event', async () => {
    const order = await orderIn(h, h.a.admin.token, h.a.migratedLab, 'ORDERED', { vendor_name: 'Nowhere', catalog_number: 'N-1' });
    for (const location_id of [foreignLocationId, h.b.migratedLab.locationIds[0]!, UNKNOWN_ID]) {
      expectError(await unchanged(h.a.admin.token, order.id, { location_id }), 404, 'not_found');
    }
    expect((await orderRow(h, order.id))!.status).toBe('ORDERED');
    expect(await itemsWith(h, h.a.migratedLab.id, 'Nowhere', 'N-1')).toEqual([]);
  });

  it('a foreign location is 404 for an existing item too (no instance is added)', async () => {
    const order = await orderIn(h, h.a.admin.token, h.a.migratedLab, 'ORDERED', { vendor_name: 'Abcam', catalog_number: 'ab290' });
    expectError(await unchanged(h.a.admin.token, order.id, { location_id: foreignLocationId }), 404, 'not_found');
  });

  it('422 for invalid dates, non-UUID location_id, non-string lot_number and unknown fields', async () => {
    const order = await orderIn(h, h.a.admin.token, h.a.migratedLab, 'ORDERED');
    for (const expiration_date of ['2027-02-30', 'tomorrow', '2027-1-1', '']) {
      expectValidation(await unchanged(h.a.admin.token, order.id, { expiration_date }), 'expiration_date');
    }
    expectValidation(await unchanged(h.a.admin.token, order.id, { location_id: 'shelf-2' }), 'location_id');
    expectValidation(await unchanged(h.a.admin.token, order.id, { lot_number: 42 }), 'lot_number');
    expectValidation(await unchanged(h.a.admin.token, order.id, { quantity: 5 }), 'quantity');
    expectValidation(await unchanged(h.a.admin.token, order.id, { status: 'RECEIVED', lot_number: 'A' }), 'status');
    expect((await orderRow(h, order.id))!.status).toBe('ORDERED');
  });

  it('422 naming id for a non-UUID id; 404 for an unknown request', async () => {
    expectValidation(await unchanged(h.a.admin.token, 'abc', {}), 'id');
    expectError(await unchanged(h.a.admin.token, UNKNOWN_ID, {}), 404, 'not_found');
  });
});

describe('security', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing changes', async () => {
    const order = await orderIn(h, h.a.admin.token, h.a.migratedLab, 'ORDERED');
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) expectError(await unchanged(token, order.id, {}), 401, 'unauthorized');
  });

  it('org A tokens get 404 for an org B request, which stays ORDERED (also with an org A location)', async () => {
    const bOrder = await orderIn(h, h.b.admin.token, h.b.migratedLab, 'ORDERED');
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      expectError(await unchanged(token, bOrder.id, {}), 404, 'not_found');
      expectError(await unchanged(token, bOrder.id, { location_id: h.a.migratedLab.locationIds[0] }), 404, 'not_found');
    }
    expect((await orderRow(h, bOrder.id))!.status).toBe('ORDERED');
  });

  it('org B cannot put goods into an org A location', async () => {
    const bOrder = await orderIn(h, h.b.admin.token, h.b.migratedLab, 'ORDERED');
    expectError(await unchanged(h.b.admin.token, bOrder.id, { location_id: h.a.migratedLab.locationIds[2] }), 404, 'not_found');
  });

  it('the member gets 404 for a request of the lab they do not belong to; the outsider for every request', async () => {
    const hidden = await orderIn(h, h.a.admin.token, h.a.otherLab, 'ORDERED');
    expectError(await unchanged(h.a.member.token, hidden.id, {}), 404, 'not_found');
    const visible = await orderIn(h, h.a.member.token, h.a.migratedLab, 'ORDERED');
    for (const id of [hidden.id, visible.id]) expectError(await unchanged(h.a.outsider.token, id, {}), 404, 'not_found');
    expect((await orderRow(h, hidden.id))!.status).toBe('ORDERED');
  });
});
