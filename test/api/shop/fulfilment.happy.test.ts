import { describe, expect, it } from 'vitest';
import { eventsOfType, h, LINE_FIELDS, placeOne, shop, useShop } from './_setup.js';

describe('shop fulfilment by operators: happy paths', () => {
  useShop();

  const op = () => shop.operator.token;
  const request = async (id: string) => (await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${id}` })).json();

  it('ships in two parts, delivers both, and the request is RECEIVED into a migrated lab as a new instance', async () => {
    const lab = h.a.migratedLab;
    const { line, requestId } = await placeOne(h, h.a.member.token, lab, shop.products.M0530S!, 5);

    const first = await h.call(op(), {
      method: 'POST',
      url: `/shop/order-items/${line.id}/shipments`,
      payload: { carrier: 'UPS', tracking: '1Z999', quantity: 2 },
    });
    expect(first.statusCode, first.body).toBe(201);
    const s1 = first.json();
    expect(s1).toMatchObject({
      carrier: 'UPS',
      tracking: '1Z999',
      quantity: 2,
      delivered_at: null,
      sales_order_item_id: line.id,
      lab: { id: lab.id, uses_instances: true },
    });
    // A partial shipment leaves the line PLACED: the contract's shipped payload shows exactly that.
    const shipped1 = (await eventsOfType(h, 'sales-order-item.shipped')).at(-1)!.data.sales_order_item;
    expect(Object.keys(shipped1).sort()).toEqual(LINE_FIELDS);
    expect(shipped1).toMatchObject({ id: line.id, status: 'PLACED', shipments: [{ id: s1.id, quantity: 2 }] });
    expect((await eventsOfType(h, 'shipment.created')).at(-1)!.data.shipment).toEqual(s1);

    const second = await h.call(op(), {
      method: 'POST',
      url: `/shop/order-items/${line.id}/shipments`,
      payload: { carrier: 'DHL', tracking: 'JD01', quantity: 3, shipped_at: '2026-11-20T08:00:00Z' },
    });
    expect(second.statusCode, second.body).toBe(201);
    const s2 = second.json();
    expect(s2.shipped_at).toBe('2026-11-20T08:00:00.000Z');
    expect((await eventsOfType(h, 'sales-order-item.shipped')).at(-1)!.data.sales_order_item.status).toBe('SHIPPED');
    expect((await request(requestId)).status).toBe('ORDERED');

    const d1 = await h.call(op(), { method: 'POST', url: `/shop/shipments/${s1.id}/deliver`, payload: {} });
    expect(d1.statusCode, d1.body).toBe(200);
    expect(d1.json().delivered_at).toMatch(/Z$/);
    expect((await request(requestId)).status).toBe('ORDERED');
    expect(await eventsOfType(h, 'sales-order-item.delivered')).toHaveLength(0);

    const itemsBefore = await h.deps.db.selectFrom('inventory_items').select('id').where('lab_id', '=', lab.id).execute();
    const d2 = await h.call(op(), { method: 'POST', url: `/shop/shipments/${s2.id}/deliver` });
    expect(d2.statusCode, d2.body).toBe(200);
    const delivered = (await eventsOfType(h, 'sales-order-item.delivered')).at(-1)!.data.sales_order_item;
    expect(delivered).toMatchObject({ id: line.id, status: 'DELIVERED', request: { id: requestId, status: 'RECEIVED' } });
    expect(delivered.shipments.every((s: { delivered_at: string | null }) => s.delivered_at !== null)).toBe(true);
    expect((await eventsOfType(h, 'shipment.delivered')).map((e) => e.data.shipment.id)).toEqual([s1.id, s2.id]);
    expect((await request(requestId)).status).toBe('RECEIVED');

    const received = (await eventsOfType(h, 'order-request.received')).at(-1)!.data.order_request;
    expect(received.id).toBe(requestId);
    const itemsAfter = await h.deps.db.selectFrom('inventory_items').selectAll().where('lab_id', '=', lab.id).execute();
    expect(itemsAfter).toHaveLength(itemsBefore.length + 1);
    const newItem = itemsAfter.find((i) => !itemsBefore.some((b) => b.id === i.id))!;
    const item = (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${newItem.id}` })).json();
    expect(item).toMatchObject({ quantity: '5', vendor_product_id: shop.products.M0530S, instances: [{ quantity: '5' }] });
  });

  it('backorders with a date, then indefinitely; the request follows with backordered_expected_at; shipping brings it back to ORDERED', async () => {
    const { line, requestId } = await placeOne(h, h.a.member.token, h.a.legacyLab, shop.products.A9539!, 1);
    const b1 = await h.call(op(), {
      method: 'POST',
      url: `/shop/order-items/${line.id}/backorder`,
      payload: { expected_at: '2027-01-15' },
    });
    expect(b1.statusCode, b1.body).toBe(200);
    // Operators get the fulfilment view of the line (no request, requester or prices); the tenant's request follows.
    expect(b1.json()).toMatchObject({
      id: line.id,
      status: 'BACKORDERED',
      estimated_shipment_date: '2027-01-15',
      estimated_delivery_date: '2027-01-18',
      backordered_expected_at: '2027-01-15',
    });
    expect(b1.json()).not.toHaveProperty('request');
    expect(await request(requestId)).toMatchObject({ status: 'BACKORDERED', backordered_expected_at: '2027-01-15' });
    expect((await eventsOfType(h, 'sales-order-item.backordered')).at(-1)!.data.sales_order_item).toMatchObject({
      id: line.id,
      status: 'BACKORDERED',
      estimated_shipment_date: '2027-01-15',
      request: { id: requestId, status: 'BACKORDERED', backordered_expected_at: '2027-01-15' },
    });

    const b2 = await h.call(op(), { method: 'POST', url: `/shop/order-items/${line.id}/backorder`, payload: {} });
    expect(b2.statusCode, b2.body).toBe(200);
    expect(b2.json()).toMatchObject({ status: 'INDEFINITELY_BACKORDERED', estimated_shipment_date: null, backordered_expected_at: null });
    expect(await request(requestId)).toMatchObject({ status: 'BACKORDERED', backordered_expected_at: null });

    const s = await h.call(op(), {
      method: 'POST',
      url: `/shop/order-items/${line.id}/shipments`,
      payload: { carrier: 'FedEx', tracking: '7712', quantity: 1 },
    });
    expect(s.statusCode, s.body).toBe(201);
    const r = await request(requestId);
    expect(r).toMatchObject({ status: 'ORDERED', backordered_expected_at: null });

    // The legacy lab's matching item does not exist yet: delivery creates it with the ordered quantity.
    const d = await h.call(op(), {
      method: 'POST',
      url: `/shop/shipments/${s.json().id}/deliver`,
      payload: { delivered_at: '2099-01-01T00:00:00Z' },
    });
    expect(d.statusCode, d.body).toBe(200);
    expect((await request(requestId)).status).toBe('RECEIVED');
  });

  it('cancels a line nothing of which shipped; its request is CANCELLED', async () => {
    const { line, requestId } = await placeOne(h, h.a.member.token, h.a.legacyLab, shop.products['352070']!, 4);
    const c = await h.call(op(), { method: 'POST', url: `/shop/order-items/${line.id}/cancel`, payload: { reason: 'discontinued' } });
    expect(c.statusCode, c.body).toBe(200);
    expect(c.json()).toMatchObject({ id: line.id, status: 'CANCELLED', estimated_shipment_date: null, cancel_reason: 'discontinued' });
    expect((await request(requestId)).status).toBe('CANCELLED');
    expect((await eventsOfType(h, 'sales-order-item.cancelled')).at(-1)!.data.sales_order_item).toMatchObject({
      id: line.id,
      status: 'CANCELLED',
      request: { id: requestId, status: 'CANCELLED' },
    });
    const row = await h.deps.db.selectFrom('sales_order_items').select('cancel_reason').where('id', '=', line.id).executeTakeFirstOrThrow();
    expect(row.cancel_reason).toBe('discontinued');
  });

  it('lists lines for operators across organizations, filtered by status', async () => {
    const a = await placeOne(h, h.a.member.token, h.a.legacyLab, shop.products.A9539!, 1);
    const b = await placeOne(h, h.b.member.token, h.b.legacyLab, shop.products.A9539!, 1);
    const res = await h.call(op(), { method: 'GET', url: '/shop/order-items?status=PLACED&per_page=100' });
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json().map((l: { id: string }) => l.id);
    expect(ids).toEqual(expect.arrayContaining([a.line.id, b.line.id]));
    expect(res.json().every((l: { status: string }) => l.status === 'PLACED')).toBe(true);
    const cancelled = await h.call(op(), { method: 'GET', url: '/shop/order-items?status=CANCELLED' });
    expect(cancelled.json().every((l: { status: string }) => l.status === 'CANCELLED')).toBe(true);
    expect(cancelled.json().length).toBeGreaterThan(0);
  });
});
