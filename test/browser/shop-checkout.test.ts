import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { type ShopFixture, setupShop } from '../helpers/shop.js';

let h: BrowserHarness;
let shop: ShopFixture;
beforeAll(async () => {
  h = await startBrowserHarness();
  shop = await setupShop(h);
});
afterAll(() => h?.close());

async function createRequest(payload: Record<string, unknown>): Promise<string> {
  const res = await h.call(h.a.member.token, {
    method: 'POST',
    url: '/order-requests',
    payload: {
      lab_id: h.a.migratedLab.id,
      type_id: h.a.migratedLab.typeId,
      price: { amount: '250.00', currency: 'USD' },
      quantity: 2,
      ...payload,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

describe('journey: catalogue, request, approve, check out, the order page', () => {
  it('a member finds a product, requests it, approves the request and checks it out by purchase order', async () => {
    const productId = shop.products.M0530S!;
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/shop');
    await page.getByRole('link', { name: 'Shop', exact: true }).waitFor();
    await page.getByTestId('products-table').waitFor();
    await expectNoSeriousAxeViolations(page);
    await page.getByRole('textbox', { name: 'Search the catalogue' }).fill('phusion polymerase');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\?q=phusion/);
    await page.getByRole('link', { name: 'Agarose, molecular biology grade' }).waitFor({ state: 'detached' });
    expect(await page.getByTestId('products-table').locator('tbody tr').count()).toBe(1);
    await page.getByRole('link', { name: 'Phusion High-Fidelity DNA Polymerase' }).click();
    await page.getByTestId('product-name').getByText('Phusion High-Fidelity DNA Polymerase').waitFor();
    expect(await page.getByText('$279.00').count()).toBe(1);
    await expectNoSeriousAxeViolations(page);

    // "Request this" opens the new-request form filled from the product; the checkout below succeeding proves the
    // request carries the product's vendor_product_id (the server refuses a request without one).
    await page.getByRole('link', { name: 'Request this' }).click();
    await page.waitForURL(`**/app/order-requests/new?vendor_product_id=${productId}`);
    await page.getByTestId('shop-product').waitFor();
    expect(await page.getByRole('textbox', { name: 'Catalog number' }).inputValue()).toBe('M0530S');
    expect(await page.getByRole('textbox', { name: 'Vendor' }).inputValue()).toBe('New England Biolabs');
    await page.getByRole('combobox', { name: 'Lab' }).click();
    await page.getByRole('option', { name: 'Migrated lab A' }).click();
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option').first().click();
    await page.getByRole('button', { name: 'Request' }).click();
    await page.waitForURL(/\/app\/order-requests\/[0-9a-f-]{36}$/);
    const shopId = page.url().split('/').pop()!;
    expect(await page.getByTestId('order-name').innerText()).toContain('Phusion High-Fidelity DNA Polymerase');
    const handId = await createRequest({ name: 'Hand-typed buffer', vendor_name: 'Local', catalog_number: 'LB-1' });
    const approve = await h.call(h.a.member.token, { method: 'PUT', url: `/order-requests/${handId}`, payload: { status: 'APPROVED' } });
    expect(approve.statusCode, approve.body).toBe(200);

    await page.goto(`/app/order-requests/${shopId}`);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('order-status').getByText('Approved').waitFor();

    await page.goto('/app/shop/checkout');
    await page.getByRole('combobox', { name: 'Lab' }).click();
    await page.getByRole('option', { name: 'Migrated lab A' }).click();
    await page.getByTestId('checkout-requests').waitFor();
    await expectNoSeriousAxeViolations(page);
    await page.getByRole('checkbox', { name: 'Check out Phusion High-Fidelity DNA Polymerase' }).check();
    await page.getByRole('checkbox', { name: 'Check out Hand-typed buffer' }).check();
    await page.getByRole('radio', { name: 'Purchase order' }).check();
    await page.getByRole('textbox', { name: 'Purchase order number' }).fill('PO-4711');
    await page.getByRole('button', { name: 'Place order' }).click();
    // The server refuses the hand-typed request and says why; nothing was ordered.
    await page
      .getByRole('alert')
      .getByText(/has no vendor_product_id/)
      .waitFor();
    expect((await h.call(h.a.member.token, { method: 'GET', url: `/order-requests/${shopId}` })).json().status).toBe('APPROVED');

    await page.getByRole('checkbox', { name: 'Check out Hand-typed buffer' }).uncheck();
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/app\/shop\/orders\/[0-9a-f-]{36}$/);
    const orderId = page.url().split('/').pop()!;
    const order = (await h.call(h.a.member.token, { method: 'GET', url: `/shop/orders/${orderId}` })).json();
    expect(await page.getByTestId('sales-order-key').innerText()).toBe(order.key);
    expect(order.purchase_order_number).toBe('PO-4711');
    const lines = page.getByTestId('sales-order-line');
    expect(await lines.count()).toBe(1);
    expect(await lines.first().getAttribute('id')).toBe(`item-${order.items[0].id}`);
    expect(await lines.first().innerText()).toContain('Phusion High-Fidelity DNA Polymerase');
    expect(await lines.first().getByTestId('line-status').innerText()).toMatch(/placed/i);
    expect(await page.getByText('Purchase order PO-4711').count()).toBe(1);
    expect(await page.getByText('Not shipped yet.').count()).toBe(1);
    await expectNoSeriousAxeViolations(page);

    // The request is ORDERED now, and the order is in the list.
    expect((await h.call(h.a.member.token, { method: 'GET', url: `/order-requests/${shopId}` })).json().status).toBe('ORDERED');
    await page.getByRole('link', { name: '← Shop orders' }).click();
    await page.getByRole('link', { name: order.key }).waitFor();
    await context.close();
    // Only the refused checkout's 422 may be logged (Chromium logs every 4xx load).
    expect(h.consoleErrors.filter((m) => !/status of 422/.test(m))).toEqual([]);
  });
});
