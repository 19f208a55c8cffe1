import { describe, expect, it } from 'vitest';
import { h, shop, useShop } from './_setup.js';

describe('GET /shop/products: security', () => {
  useShop();

  it('401 without a token or with an unknown one', async () => {
    for (const token of [null, 'lst_not-a-real-token']) {
      const res = await h.call(token, { method: 'GET', url: '/shop/products' });
      expect(res.statusCode).toBe(401);
      const one = await h.call(token, { method: 'GET', url: `/shop/products/${shop.products.M0530S}` });
      expect(one.statusCode).toBe(401);
    }
  });

  it("the catalogue is the service's, the same for every organization", async () => {
    const a = (await h.call(h.a.outsider.token, { method: 'GET', url: '/shop/products' })).json();
    const b = (await h.call(h.b.member.token, { method: 'GET', url: '/shop/products' })).json();
    expect(a).toHaveLength(4);
    expect(b).toEqual(a);
  });

  it('SQL in the search is only text', async () => {
    const res = await h.call(h.a.member.token, { method: 'GET', url: `/shop/products?q=${encodeURIComponent("' OR 1=1 --")}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(await h.deps.db.selectFrom('vendor_products').select('id').execute()).toHaveLength(4);
  });
});
