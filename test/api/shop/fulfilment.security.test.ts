import { beforeAll, describe, expect, it } from 'vitest';
import { h, placeOne, shop, useShop } from './_setup.js';

describe('shop fulfilment: operators only', () => {
  useShop();
  let lineId: string;
  let shipmentId: string;
  beforeAll(async () => {
    const placed = await placeOne(h, h.a.admin.token, h.a.legacyLab, shop.products.M0530S!, 3);
    lineId = placed.line.id;
    const s = await h.call(shop.operator.token, {
      method: 'POST',
      url: `/shop/order-items/${lineId}/shipments`,
      payload: { carrier: 'UPS', tracking: '1', quantity: 1 },
    });
    expect(s.statusCode).toBe(201);
    shipmentId = s.json().id;
  });

  const calls = () => [
    { method: 'GET' as const, url: '/shop/order-items' },
    { method: 'POST' as const, url: `/shop/order-items/${lineId}/shipments`, payload: { carrier: 'UPS', tracking: '2', quantity: 1 } },
    { method: 'POST' as const, url: `/shop/shipments/${shipmentId}/deliver`, payload: {} },
    { method: 'POST' as const, url: `/shop/order-items/${lineId}/backorder`, payload: {} },
    { method: 'POST' as const, url: `/shop/order-items/${lineId}/cancel`, payload: {} },
  ];

  it('403 for every lab user, even the org admin who placed the order; nothing changes', async () => {
    const before = await h.deps.db.selectFrom('shipments').selectAll().execute();
    const lines = await h.deps.db.selectFrom('sales_order_items').selectAll().execute();
    for (const token of [h.a.admin.token, h.a.member.token, h.b.admin.token]) {
      for (const call of calls()) {
        const res = await h.call(token, call);
        expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'forbidden', message: 'Shop fulfilment is done by service operators' });
      }
    }
    expect(await h.deps.db.selectFrom('shipments').selectAll().execute()).toEqual(before);
    expect(await h.deps.db.selectFrom('sales_order_items').selectAll().execute()).toEqual(lines);
  });

  it('401 without a token', async () => {
    for (const call of calls()) expect((await h.call(null, call)).statusCode).toBe(401);
  });

  it("the old users.is_operator flag grants nothing: a flagged user's own token still gets 403", async () => {
    // Before migration 0007 the flag made a user's token an operator's; now only operator tokens (lso_) fulfil.
    await h.deps.db.updateTable('users').set({ is_operator: 1 }).where('id', '=', h.a.member.id).execute();
    try {
      const res = await h.call(h.a.member.token, { method: 'GET', url: '/shop/order-items' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden' });
    } finally {
      await h.deps.db.updateTable('users').set({ is_operator: 0 }).where('id', '=', h.a.member.id).execute();
    }
    expect((await h.call(shop.operator.token, { method: 'GET', url: '/shop/order-items' })).statusCode).toBe(200);
  });
});
