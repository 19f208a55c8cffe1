import { describe, expect, it } from 'vitest';
import { h, MISSING_ID, useShop } from './_setup.js';

describe('GET /shop/products: errors', () => {
  useShop();

  it.each([
    ['?page=0', 'page'],
    ['?per_page=101', 'per_page'],
    ['?page=abc', 'page'],
  ])('422 for %s', async (query, field) => {
    const res = await h.call(h.a.member.token, { method: 'GET', url: `/shop/products${query}` });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('422 for a search longer than 200 characters', async () => {
    const res = await h.call(h.a.member.token, { method: 'GET', url: `/shop/products?q=${'x'.repeat(201)}` });
    expect(res.statusCode).toBe(422);
  });

  it('404 for an unknown product, 422 for a malformed id', async () => {
    const missing = await h.call(h.a.member.token, { method: 'GET', url: `/shop/products/${MISSING_ID}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'not_found', message: 'product not found' });
    expect((await h.call(h.a.member.token, { method: 'GET', url: '/shop/products/nope' })).statusCode).toBe(422);
  });

  it('past the last page is an empty list, not an error', async () => {
    const res = await h.call(h.a.member.token, { method: 'GET', url: '/shop/products?page=99' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });
});
