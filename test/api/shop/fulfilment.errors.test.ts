import { describe, expect, it } from 'vitest';
import { h, MISSING_ID, placeOne, shop, useShop } from './_setup.js';

describe('shop fulfilment: refused operations change nothing', () => {
  useShop();

  const op = (method: 'POST' | 'GET', url: string, payload?: Record<string, unknown>) =>
    h.call(shop.operator.token, { method, url, ...(payload === undefined ? {} : { payload }) });
  const snapshot = async () => ({
    lines: await h.deps.db.selectFrom('sales_order_items').selectAll().orderBy('id').execute(),
    shipments: await h.deps.db.selectFrom('shipments').selectAll().orderBy('id').execute(),
    requests: await h.deps.db.selectFrom('order_requests').selectAll().orderBy('id').execute(),
    events: (await h.deps.db.selectFrom('events').select('id').execute()).length,
    items: (await h.deps.db.selectFrom('inventory_items').select('id').execute()).length,
  });
  async function refused(res: { statusCode: number; json(): any }, status: number, before: unknown, message?: string) {
    expect(res.statusCode).toBe(status);
    if (message) expect(res.json().message).toContain(message);
    expect(await snapshot()).toEqual(before);
  }

  it('shipping more than is left, or nothing at all, or with empty fields', async () => {
    const { line } = await placeOne(h, h.a.member.token, h.a.legacyLab, shop.products.M0530S!, 3);
    const before = await snapshot();
    await refused(
      await op('POST', `/shop/order-items/${line.id}/shipments`, { carrier: 'UPS', tracking: '1', quantity: 4 }),
      409,
      before,
      'only 3 of 3 are left to ship',
    );
    await refused(await op('POST', `/shop/order-items/${line.id}/shipments`, { carrier: 'UPS', tracking: '1', quantity: 0 }), 422, before);
    await refused(
      await op('POST', `/shop/order-items/${line.id}/shipments`, { carrier: ' ', tracking: '1', quantity: 1 }),
      422,
      before,
      'carrier',
    );
    await refused(
      await op('POST', `/shop/order-items/${line.id}/shipments`, { carrier: 'UPS', tracking: '1', quantity: 1, shipped_at: 'yesterday' }),
      422,
      before,
    );
    await refused(
      await op('POST', `/shop/order-items/${line.id}/shipments`, { carrier: 'UPS', tracking: '1', quantity: 1, weight: 3 }),
      422,
      before,
      'weight',
    );
  });

  it('after everything shipped: no more shipments, no backorder, no cancel; a shipment delivers once', async () => {
    const { line } = await placeOne(h, h.a.member.token, h.a.legacyLab, shop.products.M0530S!, 2);
    const s = (await op('POST', `/shop/order-items/${line.id}/shipments`, { carrier: 'UPS', tracking: '1', quantity: 2 })).json();
    let before = await snapshot();
    await refused(
      await op('POST', `/shop/order-items/${line.id}/shipments`, { carrier: 'UPS', tracking: '2', quantity: 1 }),
      409,
      before,
      'already shipped',
    );
    await refused(
      await op('POST', `/shop/order-items/${line.id}/backorder`, { expected_at: '2027-01-01' }),
      409,
      before,
      'already shipped',
    );
    await refused(await op('POST', `/shop/order-items/${line.id}/cancel`, {}), 409, before, '2 of 2 already shipped');
    await refused(
      await op('POST', `/shop/shipments/${s.id}/deliver`, { delivered_at: '2000-01-01T00:00:00Z' }),
      422,
      before,
      'before the shipment left',
    );
    expect((await op('POST', `/shop/shipments/${s.id}/deliver`, {})).statusCode).toBe(200);
    before = await snapshot();
    await refused(await op('POST', `/shop/shipments/${s.id}/deliver`, {}), 409, before, 'already delivered');
    await refused(
      await op('POST', `/shop/order-items/${line.id}/shipments`, { carrier: 'UPS', tracking: '3', quantity: 1 }),
      409,
      before,
      'DELIVERED',
    );
  });

  it('a cancelled line takes nothing more', async () => {
    const { line } = await placeOne(h, h.a.member.token, h.a.legacyLab, shop.products.A9539!, 1);
    expect((await op('POST', `/shop/order-items/${line.id}/cancel`)).statusCode).toBe(200);
    const before = await snapshot();
    await refused(await op('POST', `/shop/order-items/${line.id}/cancel`), 409, before, 'CANCELLED');
    await refused(await op('POST', `/shop/order-items/${line.id}/backorder`), 409, before, 'CANCELLED');
    await refused(
      await op('POST', `/shop/order-items/${line.id}/shipments`, { carrier: 'UPS', tracking: '1', quantity: 1 }),
      409,
      before,
      'CANCELLED',
    );
  });

  it('422 for a bad expected date or status filter; 404 for unknown lines and shipments', async () => {
    const { line } = await placeOne(h, h.a.member.token, h.a.legacyLab, shop.products.A9539!, 1);
    const before = await snapshot();
    await refused(await op('POST', `/shop/order-items/${line.id}/backorder`, { expected_at: '2027-02-30' }), 422, before);
    await refused(await op('GET', '/shop/order-items?status=LOST'), 422, before, 'LOST');
    await refused(await op('POST', `/shop/order-items/${MISSING_ID}/cancel`), 404, before, 'sales order item not found');
    await refused(await op('POST', `/shop/shipments/${MISSING_ID}/deliver`), 404, before, 'shipment not found');
    await refused(await op('POST', '/shop/order-items/nope/cancel'), 422, before);
  });
});

describe('shop fulfilment under concurrency', () => {
  useShop();

  it('ten operators shipping one unit each of a line of five: exactly five shipments exist', async () => {
    const { line } = await placeOne(h, h.a.member.token, h.a.legacyLab, shop.products.M0530S!, 5);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        h.call(shop.operator.token, {
          method: 'POST',
          url: `/shop/order-items/${line.id}/shipments`,
          payload: { carrier: 'UPS', tracking: `T${i}`, quantity: 1 },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([...Array(5).fill(201), ...Array(5).fill(409)]);
    const shipments = await h.deps.db.selectFrom('shipments').select('quantity').where('sales_order_item_id', '=', line.id).execute();
    expect(shipments).toHaveLength(5);
    const row = await h.deps.db.selectFrom('sales_order_items').select('status').where('id', '=', line.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('SHIPPED');
    const shippedEvents = await h.deps.db
      .selectFrom('events')
      .select('id')
      .where('type', '=', 'com.labstock.sales-order-item.shipped')
      .execute();
    expect(shippedEvents).toHaveLength(5);
  });
});
