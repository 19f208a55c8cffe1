import { describe, expect, it } from 'vitest';
import { checkoutRequests, eventsOfType, h, LINE_FIELDS, SALES_ORDER_FIELDS, shop, shopRequest, useShop } from './_setup.js';

describe('POST /shop/orders, GET /shop/orders, GET /shop/orders/{id}: happy paths', () => {
  useShop({ SHOP_SHIPPING: '9.95', SHOP_HANDLING: '2.50', SHOP_TAX_RATE: '0.08' });

  it('checks out requests into one priced order; the requests become ORDERED with history', async () => {
    const lab = h.a.migratedLab;
    const r1 = await shopRequest(h, h.a.member.token, lab, shop.products.M0530S!, 2);
    const r2 = await shopRequest(h, h.a.member.token, lab, shop.products['352070']!, 3);
    await h.call(h.a.member.token, { method: 'PUT', url: `/order-requests/${r2}`, payload: { status: 'APPROVED' } });
    const orderedBefore = (await eventsOfType(h, 'order-request.ordered')).length;

    const res = await checkoutRequests(h, h.a.member.token, lab.id, [r1, r2], {
      payment_method: 'PURCHASE_ORDER',
      purchase_order_number: 'PO-77',
    });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json();
    expect(res.headers.location).toBe(`/shop/orders/${order.id}`);
    expect(Object.keys(order).sort()).toEqual(SALES_ORDER_FIELDS);
    expect(order.key).toMatch(/^SO-\d{4}-[0-9A-HJKMNP-TV-Z]{6}$/);
    expect(order).toMatchObject({ payment_method: 'PURCHASE_ORDER', purchase_order_number: 'PO-77', is_test: false });
    expect(order.lab).toEqual({
      id: lab.id,
      name: expect.any(String),
      organization: { id: h.a.orgId, name: 'Org A' },
      uses_instances: true,
    });
    expect(order.placed_by.id).toBe(h.a.member.id);
    // 2 × 279.00 + 3 × 248.50 = 1303.50; + 9.95 + 2.50 = 1315.95; 8 % tax = 105.276 → 105.28 (half-even at the cent).
    expect(order.subtotal).toEqual({ amount: '130350', currency: 'USD' });
    expect(order.shipping).toEqual({ amount: '995', currency: 'USD' });
    expect(order.handling).toEqual({ amount: '250', currency: 'USD' });
    expect(order.tax).toEqual({ amount: '10528', currency: 'USD' });
    expect(order.total).toEqual({ amount: '142123', currency: 'USD' });

    expect(order.items).toHaveLength(2);
    const [l1, l2] = order.items;
    expect(Object.keys(l1).sort()).toEqual(LINE_FIELDS);
    expect(l1).toMatchObject({
      status: 'PLACED',
      quantity: 2,
      sell_price: { amount: '27900', currency: 'USD' },
      shipments: [],
      product: {
        id: shop.products.M0530S,
        item_name: 'Phusion High-Fidelity DNA Polymerase',
        catalog_number: 'M0530S',
        unit: { name: 'units', symbol: 'U', amount: 100 },
      },
      app_url: `http://labstock.test/app/shop/orders/${order.id}#item-${l1.id}`,
    });
    expect(l1.estimated_shipment_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(l1.estimated_delivery_date > l1.estimated_shipment_date).toBe(true);
    expect(l1.request).toMatchObject({ id: r1, status: 'ORDERED', lab: { uses_instances: true } });
    expect(l2.request).toMatchObject({ id: r2, status: 'ORDERED' });

    const after = await h.call(h.a.member.token, { method: 'GET', url: `/order-requests/${r1}` });
    expect(after.json().status).toBe('ORDERED');
    const ordered = await eventsOfType(h, 'order-request.ordered');
    expect(ordered.length - orderedBefore).toBe(2);
    const last = ordered.at(-1)!.data.order_request;
    expect(last.events.map((e: { type: string }) => e.type)).toEqual(['CREATED', 'APPROVED', 'UPDATED', 'ORDERED']);
    expect(last.events.at(-1).comment).toBe(`checked out in shop order ${order.key}`);

    const placed = await eventsOfType(h, 'sales-order.placed');
    expect(placed.at(-1)!.data).toEqual({ sales_order: order });
  });

  it('lists the orders of visible labs with paging headers, and gets one', async () => {
    const lab = h.a.legacyLab;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await shopRequest(h, h.a.admin.token, lab, shop.products.A9539!, 1);
      const res = await checkoutRequests(h, h.a.admin.token, lab.id, [r], { is_test: true });
      expect(res.statusCode).toBe(201);
      ids.push(res.json().id);
    }
    const page = await h.call(h.a.member.token, { method: 'GET', url: `/shop/orders?lab_id=${lab.id}&per_page=2` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.json().map((o: { id: string }) => o.id)).toEqual(ids.slice(0, 2));
    expect(page.headers.link).toContain('rel="next"');
    const one = await h.call(h.a.member.token, { method: 'GET', url: `/shop/orders/${ids[2]}` });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: ids[2], is_test: true, payment_method: 'CREDIT_CARD', purchase_order_number: null });
    expect(one.json().items[0].request.lab.uses_instances).toBe(false);
  });

  it('prices a currency with no minor unit exactly (tax rounds to whole yen)', async () => {
    await h.deps.db
      .updateTable('vendor_products')
      .set({ price_amount: '1999', currency: 'JPY' })
      .where('id', '=', shop.products['T-100_%']!)
      .execute();
    const r = await shopRequest(h, h.a.admin.token, h.a.legacyLab, shop.products['T-100_%']!, 3);
    const res = await checkoutRequests(h, h.a.admin.token, h.a.legacyLab.id, [r]);
    expect(res.statusCode, res.body).toBe(201);
    // 3 × ¥1999 = 5997; shipping ¥10 (9.95 rounds half-even at the yen), handling ¥2 (2.50 → 2); tax 8 % of 6009 = 480.72 → 481.
    expect(res.json()).toMatchObject({
      subtotal: { amount: '5997', currency: 'JPY' },
      shipping: { amount: '10' },
      handling: { amount: '2' },
      tax: { amount: '481' },
      total: { amount: '6490' },
    });
  });
});
