// Numbers as typed (docs/web.md): what a person types is kept, read with their locale's decimal comma, and what a
// field cannot take is refused with a sentence under it; nothing is rounded, turned into something else or clamped.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, PASSWORD, startBrowserHarness } from '../helpers/browser.js';
import { addItem } from '../helpers/data.js';
import { fillNewRequest } from '../helpers/request-form.js';
import { placeOne, type ShopFixture, setupShop } from '../helpers/shop.js';

let h: BrowserHarness;
let shop: ShopFixture;
beforeAll(async () => {
  h = await startBrowserHarness();
  shop = await setupShop(h);
});
afterAll(() => h?.close());

const get = async (url: string) => (await h.call(h.a.admin.token, { method: 'GET', url })).json();
const requestsNamed = async (name: string) =>
  (await get('/order-requests?per_page=100')).filter((r: { item_name: string }) => r.item_name === name);

describe('journey: numbers are kept as typed', () => {
  it('an order request quantity: 2.5 and 0 are refused under the field (never 25 or 1); " 7 " is 7', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/order-requests/new');
    await fillNewRequest(page, { item: 'Typed antibody', catalog: 'ab-2', unitPrice: '12.5' });
    const quantity = page.getByRole('textbox', { name: 'Quantity' });

    await quantity.fill('2.5');
    await page.getByRole('button', { name: 'Request' }).click();
    await page.getByText('Enter a whole number.').waitFor();
    expect(await quantity.inputValue()).toBe('2.5');
    expect(await quantity.getAttribute('aria-invalid')).toBe('true');

    await quantity.fill('0');
    await page.getByRole('button', { name: 'Request' }).click();
    await page.getByText('Enter a number above zero.').waitFor();
    expect(await quantity.inputValue()).toBe('0');
    await page.waitForLoadState('networkidle');
    expect(await requestsNamed('Typed antibody')).toEqual([]);

    await quantity.fill(' 7 ');
    await page.getByRole('button', { name: 'Request' }).click();
    await page.waitForURL(/\/app\/order-requests\/[0-9a-f-]{36}$/);
    const made = await requestsNamed('Typed antibody');
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ quantity: '7', unit_price: '12.50' });
    await context.close();
  });

  it('a new item keeps 2.5 as 2.5, and its web page must be http(s): javascript: is refused under the field', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', `/app/inventory/items/new?lab=${h.a.legacyLab.id}`);
    await page.getByRole('textbox', { name: 'Name' }).fill('Typed buffer');
    await page.getByRole('textbox', { name: 'Quantity' }).fill('2.5');
    await page.getByRole('textbox', { name: 'Web page' }).fill('javascript:alert(document.cookie)');
    await page.getByRole('button', { name: 'Create item' }).click();
    await page.getByText('Enter a web address that starts with http:// or https://.').waitFor();
    await page.waitForLoadState('networkidle');
    const named = async () =>
      (await get(`/inventory-items?lab_id=${h.a.legacyLab.id}&per_page=100`)).filter((i: { name: string }) => i.name === 'Typed buffer');
    expect(await named()).toEqual([]);

    await page.getByRole('textbox', { name: 'Web page' }).fill('https://example.org/buffer');
    await page.getByRole('button', { name: 'Create item' }).click();
    await page.waitForURL(/\/app\/inventory\/items\/[0-9a-f-]{36}$/);
    expect(await named()).toMatchObject([{ quantity: '2.5', url: 'https://example.org/buffer' }]);
    await context.close();
  });

  it('a person whose locale writes a decimal comma adjusts by -0,2 and 4,5 becomes 4,3 (4.3)', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Typed ethanol', quantity: '4.5' });
    const context = await h.browser.newContext({ baseURL: h.origin, locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto(`/app/inventory/items/${item.id}`);
    await page.getByLabel('E-mail').fill('member-A@example.org');
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Change by').fill('-0,2');
    await page.getByLabel('Note').fill('komma');
    await page.getByRole('button', { name: 'Adjust' }).click();
    await page.getByTestId('history-table').getByText('komma').waitFor();
    expect((await get(`/inventory-items/${item.id}`)).quantity).toBe('4.3');
    await context.close();
  });

  it('the operator ships 5 of a line with 2 left: refused under the field, nothing shipped', async () => {
    const placed = await placeOne(h, h.a.member.token, h.a.migratedLab, shop.products.M0530S!, 2);
    const { page, context } = await h.newPage();
    await page.goto('/app/shop/fulfilment');
    await page.getByLabel('Operator token').fill(shop.operator.token);
    await page.getByRole('button', { name: 'Open the queue' }).click();
    const row = page.getByTestId('fulfilment-line').filter({ hasText: placed.order.key });
    await row.getByRole('button', { name: 'Ship…' }).click();
    await page.getByRole('textbox', { name: 'Carrier' }).fill('UPS');
    await page.getByRole('textbox', { name: 'Tracking' }).fill('1Z999AA10123456784');
    const quantity = page.getByRole('textbox', { name: 'Quantity' });
    await quantity.fill('5');
    await quantity.blur();
    await page.getByRole('button', { name: 'Ship', exact: true }).click();
    await page.getByText('At most 2 here.').waitFor();
    expect(await quantity.inputValue()).toBe('5');
    await page.waitForLoadState('networkidle');
    const line = (await h.call(h.a.member.token, { method: 'GET', url: `/shop/orders/${placed.order.id}` })).json().items[0];
    expect(line.shipments).toEqual([]);
    await context.close();
  });
});
