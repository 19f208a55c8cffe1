import { describe, expect, it } from 'vitest';
import { checkoutRequests, h, MISSING_ID, placeOne, shop, shopRequest, useShop } from './_setup.js';

describe('POST /shop/orders: errors change nothing', () => {
  useShop();

  const lab = () => h.a.legacyLab;
  /** Sales orders, lines and events: none of them may change when a checkout fails. */
  const snapshot = async () => ({
    orders: (await h.deps.db.selectFrom('sales_orders').select('id').execute()).length,
    lines: (await h.deps.db.selectFrom('sales_order_items').select('id').execute()).length,
    events: (await h.deps.db.selectFrom('events').select('id').execute()).length,
    statuses: await h.deps.db.selectFrom('order_requests').select(['id', 'status']).orderBy('id').execute(),
  });

  async function expectRefused(res: { statusCode: number; json(): any }, status: number, code: string, before: unknown) {
    expect(res.statusCode).toBe(status);
    expect(res.json().code).toBe(code);
    expect(await snapshot()).toEqual(before);
    return res.json();
  }

  it('422: PURCHASE_ORDER without a number, a request listed twice, unknown fields, no requests, bad payment method', async () => {
    const r = await shopRequest(h, h.a.member.token, lab(), shop.products.M0530S!);
    const before = await snapshot();
    const po = await expectRefused(
      await checkoutRequests(h, h.a.member.token, lab().id, [r], { payment_method: 'PURCHASE_ORDER' }),
      422,
      'validation_failed',
      before,
    );
    expect(po.errors).toEqual([{ field: 'purchase_order_number', message: 'required when payment_method is PURCHASE_ORDER' }]);
    const twice = await expectRefused(await checkoutRequests(h, h.a.member.token, lab().id, [r, r]), 422, 'validation_failed', before);
    expect(twice.errors[0].field).toBe('order_request_ids/1');
    const extra = await expectRefused(
      await checkoutRequests(h, h.a.member.token, lab().id, [r], { coupon: 'FREE' }),
      422,
      'validation_failed',
      before,
    );
    expect(JSON.stringify(extra.errors)).toContain('coupon');
    await expectRefused(await checkoutRequests(h, h.a.member.token, lab().id, []), 422, 'validation_failed', before);
    await expectRefused(
      await checkoutRequests(h, h.a.member.token, lab().id, [r], { payment_method: 'CASH' }),
      422,
      'validation_failed',
      before,
    );
  });

  it('422: a request without a shop product, and products in two currencies', async () => {
    const plain = await h.call(h.a.member.token, {
      method: 'POST',
      url: '/order-requests',
      payload: {
        lab_id: lab().id,
        type_id: lab().typeId,
        name: 'Elsewhere',
        vendor_name: 'Other',
        catalog_number: 'X',
        price: { amount: '100', currency: 'USD' },
        quantity: 1,
      },
    });
    const shopOne = await shopRequest(h, h.a.member.token, lab(), shop.products.M0530S!);
    const euro = await shopRequest(h, h.a.member.token, lab(), shop.products['T-100_%']!);
    const before = await snapshot();
    const noProduct = await expectRefused(
      await checkoutRequests(h, h.a.member.token, lab().id, [shopOne, plain.json().id]),
      422,
      'validation_failed',
      before,
    );
    expect(noProduct.errors[0]).toMatchObject({ field: 'order_request_ids/1' });
    const mixed = await expectRefused(
      await checkoutRequests(h, h.a.member.token, lab().id, [shopOne, euro]),
      422,
      'validation_failed',
      before,
    );
    expect(mixed.message).toContain('EUR');
  });

  it('404: unknown lab, unknown request, a request of another lab', async () => {
    const r = await shopRequest(h, h.a.member.token, lab(), shop.products.M0530S!);
    const inOther = await shopRequest(h, h.a.member.token, h.a.migratedLab, shop.products.M0530S!);
    const before = await snapshot();
    await expectRefused(await checkoutRequests(h, h.a.member.token, MISSING_ID, [r]), 404, 'not_found', before);
    const missing = await expectRefused(await checkoutRequests(h, h.a.member.token, lab().id, [r, MISSING_ID]), 404, 'not_found', before);
    expect(missing.message).toContain(MISSING_ID);
    await expectRefused(await checkoutRequests(h, h.a.member.token, lab().id, [r, inOther]), 404, 'not_found', before);
  });

  it('409: a request that is not CREATED or APPROVED, or already checked out', async () => {
    const cancelled = await shopRequest(h, h.a.member.token, lab(), shop.products.M0530S!);
    await h.call(h.a.member.token, { method: 'PUT', url: `/order-requests/${cancelled}`, payload: { status: 'CANCELLED' } });
    const placed = await placeOne(h, h.a.member.token, lab(), shop.products.A9539!);
    const before = await snapshot();
    const res = await expectRefused(await checkoutRequests(h, h.a.member.token, lab().id, [cancelled]), 409, 'conflict', before);
    expect(res.message).toContain(`${cancelled} is CANCELLED`);
    await expectRefused(await checkoutRequests(h, h.a.member.token, lab().id, [placed.requestId]), 409, 'conflict', before);
  });

  it("409: a checked-out request's status, receipt and deletion belong to the shop", async () => {
    const { requestId } = await placeOne(h, h.a.member.token, lab(), shop.products.A9539!);
    const before = await snapshot();
    await expectRefused(
      await h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${requestId}`, payload: { status: 'RECEIVED' } }),
      409,
      'conflict',
      before,
    );
    await expectRefused(
      await h.call(h.a.admin.token, { method: 'POST', url: `/order-requests/${requestId}/receive`, payload: {} }),
      409,
      'conflict',
      before,
    );
    await expectRefused(await h.call(h.a.admin.token, { method: 'DELETE', url: `/order-requests/${requestId}` }), 409, 'conflict', before);
    // Setting the status it already has is still a harmless no-op.
    const same = await h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${requestId}`, payload: { status: 'ORDERED' } });
    expect(same.statusCode).toBe(200);
    expect(await snapshot()).toEqual(before);
  });

  it('GET /shop/orders: 422 for bad paging and malformed ids, 404 for unknown ids', async () => {
    expect((await h.call(h.a.member.token, { method: 'GET', url: '/shop/orders?page=0' })).statusCode).toBe(422);
    expect((await h.call(h.a.member.token, { method: 'GET', url: '/shop/orders/123' })).statusCode).toBe(422);
    expect((await h.call(h.a.member.token, { method: 'GET', url: `/shop/orders/${MISSING_ID}` })).statusCode).toBe(404);
  });
});
