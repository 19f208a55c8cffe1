import { describe, expect, it } from 'vitest';
import { h, shop, useShop } from './_setup.js';

describe('GET /shop/products, GET /shop/products/{id}: happy paths', () => {
  useShop();

  const list = (query: string) => h.call(h.a.member.token, { method: 'GET', url: `/shop/products${query}` });

  it('lists the catalogue in a stable order with paging headers', async () => {
    const res = await list('?per_page=3');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('4');
    const body = res.json();
    expect(body.map((p: { catalog_number: string }) => p.catalog_number)).toEqual(['M0530S', '352070', 'A9539']);
    expect(body[0]).toEqual({
      id: shop.products.M0530S,
      item_name: 'Phusion High-Fidelity DNA Polymerase',
      catalog_number: 'M0530S',
      vendor_name: 'New England Biolabs',
      unit: { name: 'units', symbol: 'U', amount: 100 },
      price: { amount: '27900', currency: 'USD' },
    });
    expect((await list('?page=2&per_page=3')).json().map((p: { catalog_number: string }) => p.catalog_number)).toEqual(['T-100_%']);
  });

  it('searches every word, case-insensitively, across name, catalog number and vendor', async () => {
    const names = async (q: string) =>
      (await list(`?q=${encodeURIComponent(q)}`)).json().map((p: { catalog_number: string }) => p.catalog_number);
    expect(await names('PHUSION')).toEqual(['M0530S']);
    expect(await names('corning 50')).toEqual(['352070']);
    expect(await names('sigma agarose')).toEqual(['A9539']);
    expect(await names('polymerase corning')).toEqual([]);
    expect(await names('a9539')).toEqual(['A9539']);
  });

  it('treats % and _ in the search as literal characters', async () => {
    const res = await list(`?q=${encodeURIComponent('100_%')}`);
    expect(res.json().map((p: { catalog_number: string }) => p.catalog_number)).toEqual(['T-100_%']);
    expect((await list('?q=%25')).json().map((p: { catalog_number: string }) => p.catalog_number)).toEqual(['T-100_%']);
    expect((await list('?q=_')).json().map((p: { catalog_number: string }) => p.catalog_number)).toEqual(['T-100_%']);
  });

  it('filters by exact vendor and gets one product', async () => {
    expect((await list('?vendor=Corning')).json().map((p: { id: string }) => p.id)).toEqual([shop.products['352070']]);
    const one = await h.call(h.b.member.token, { method: 'GET', url: `/shop/products/${shop.products.A9539}` });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: shop.products.A9539, price: { amount: '15600', currency: 'USD' }, unit: { amount: 100 } });
  });
});
