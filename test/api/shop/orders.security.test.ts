import { beforeAll, describe, expect, it } from 'vitest';
import { checkoutRequests, h, placeOne, shop, shopRequest, useShop } from './_setup.js';

describe("shop orders: another tenant's ids are 404, never data", () => {
  useShop();
  let orderA: { id: string };
  beforeAll(async () => {
    orderA = (await placeOne(h, h.a.admin.token, h.a.otherLab, shop.products.M0530S!)).order;
  });

  it('401 without a token', async () => {
    expect((await h.call(null, { method: 'GET', url: '/shop/orders' })).statusCode).toBe(401);
    expect((await h.call(null, { method: 'GET', url: `/shop/orders/${orderA.id}` })).statusCode).toBe(401);
    expect((await checkoutRequests(h, '', h.a.legacyLab.id, [orderA.id])).statusCode).toBe(401);
  });

  it("another organization cannot see, list or check out into A's labs", async () => {
    expect((await h.call(h.b.admin.token, { method: 'GET', url: `/shop/orders/${orderA.id}` })).statusCode).toBe(404);
    const list = await h.call(h.b.admin.token, { method: 'GET', url: `/shop/orders?lab_id=${h.a.otherLab.id}` });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([]);
    const r = await shopRequest(h, h.a.admin.token, h.a.legacyLab, shop.products.A9539!);
    const res = await checkoutRequests(h, h.b.admin.token, h.a.legacyLab.id, [r]);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain(r);
    // B's own lab with A's request: the request is not found in that lab.
    const cross = await checkoutRequests(h, h.b.admin.token, h.b.legacyLab.id, [r]);
    expect(cross.statusCode).toBe(404);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${r}` })).json().status).toBe('CREATED');
  });

  it('a member sees only the orders of labs they belong to', async () => {
    expect((await h.call(h.a.member.token, { method: 'GET', url: `/shop/orders/${orderA.id}` })).statusCode).toBe(404);
    const all = await h.call(h.a.member.token, { method: 'GET', url: '/shop/orders' });
    expect(all.json().map((o: { id: string }) => o.id)).not.toContain(orderA.id);
    const r = await shopRequest(h, h.a.admin.token, h.a.otherLab, shop.products.A9539!);
    expect((await checkoutRequests(h, h.a.member.token, h.a.otherLab.id, [r])).statusCode).toBe(404);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/shop/orders/${orderA.id}` })).statusCode).toBe(200);
  });
});
