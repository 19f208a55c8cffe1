import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { createOrder, ORDER_FIELDS, orderBody, orderEvents } from './_helpers.js';
import { productItem, reorder } from './_reorder.js';

const h = useHarness();

describe('POST /inventory-items/{id}/reorder', () => {
  it("makes a CREATED request with the item's product and the price the lab last asked for it", async () => {
    const item = await productItem(h, h.a.member.token, h.a.legacyLab);
    await createOrder(
      h,
      h.a.admin.token,
      orderBody(h.a.legacyLab, {
        vendor_name: item.vendor,
        catalog_number: item.catalog_number,
        price: { amount: '9.00', currency: 'EUR' },
      }),
    );
    await createOrder(
      h,
      h.a.admin.token,
      orderBody(h.a.legacyLab, {
        vendor_name: item.vendor,
        catalog_number: item.catalog_number,
        price: { amount: '10.40', currency: 'EUR' },
      }),
    );
    // The same product in another lab of the organization does not set this lab's price.
    await createOrder(
      h,
      h.a.admin.token,
      orderBody(h.a.otherLab, {
        vendor_name: item.vendor,
        catalog_number: item.catalog_number,
        price: { amount: '1.00', currency: 'USD' },
      }),
    );

    const res = await reorder(h, h.a.member.token, item.id, { quantity: 3, notes: 'running low', required_before: '2027-01-15' });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json();
    expect(res.headers.location).toBe(`/order-requests/${order.id}`);
    expect(Object.keys(order).sort()).toEqual(ORDER_FIELDS);
    expect(order).toMatchObject({
      status: 'CREATED',
      item_name: item.name,
      vendor_name: item.vendor,
      catalog_number: item.catalog_number,
      quantity: '3',
      unit_price: '10.40',
      total_price: { amount: '3120', currency: 'EUR' },
      notes: 'running low',
      lab: { id: h.a.legacyLab.id },
      type: { id: h.a.legacyLab.typeId },
    });
    const got = await h.call(h.a.member.token, { method: 'GET', url: `/order-requests/${order.id}` });
    expect(got.json()).toEqual(order);
    const events = await orderEvents(h, 'created', order.id);
    expect(events).toHaveLength(1);
  });

  it("keeps the item's unit size (an item without one orders without one)", async () => {
    const sized = await productItem(h, h.a.admin.token, h.a.legacyLab, { unit_size: '500 mL' });
    const res = await reorder(h, h.a.admin.token, sized.id, { price: { amount: '3', currency: 'EUR' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().unit_size).toBe('500 mL');
    const plain = await productItem(h, h.a.admin.token, h.a.legacyLab);
    expect((await reorder(h, h.a.admin.token, plain.id, { price: { amount: '3', currency: 'EUR' } })).json().unit_size).toBeNull();
  });

  it('without a body orders one; a price that is sent wins over the last one', async () => {
    const item = await productItem(h, h.a.admin.token, h.a.migratedLab);
    const first = await reorder(h, h.a.admin.token, item.id, { price: { amount: '4.25', currency: 'GBP' } });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ quantity: '1', unit_price: '4.25', total_price: { amount: '425', currency: 'GBP' } });
    const second = await reorder(h, h.a.admin.token, item.id);
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json()).toMatchObject({
      quantity: '1',
      unit_price: '4.25',
      total_price: { currency: 'GBP' },
      lab: { id: h.a.migratedLab.id },
    });
    expect(second.json().id).not.toBe(first.json().id);
  });

  it('answers a retry with the same Idempotency-Key with the first request', async () => {
    const item = await productItem(h, h.a.admin.token, h.a.legacyLab);
    const send = () =>
      h.call(h.a.admin.token, {
        method: 'POST',
        url: `/inventory-items/${item.id}/reorder`,
        headers: { 'idempotency-key': `reorder-${item.id}` },
        payload: { price: { amount: '2.00', currency: 'USD' } },
      });
    const a = await send();
    const b = await send();
    expect(a.statusCode, a.body).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.json().id).toBe(a.json().id);
    expect(await orderEvents(h, 'created', a.json().id)).toHaveLength(1);
  });
});
