// Exactly once, the forms issue 23 left (docs/web.md, "Exactly once"): a double-clicked Place order makes one sales
// order, a double-clicked Add in the location dialog one location and its Rename one change, a double-clicked Save of
// a webhook's edit one change. The double-click is two clicks in one task (before React re-renders the button as
// busy); rows are counted through the API, and a change that leaves no row is counted as the requests the page sent.

import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { type ShopFixture, setupShop, shopRequest } from '../helpers/shop.js';

let h: BrowserHarness;
let shop: ShopFixture;
beforeAll(async () => {
  h = await startBrowserHarness();
  shop = await setupShop(h);
});
afterAll(() => h?.close());

const doubleClick = (button: Locator) =>
  button.evaluate((b) => {
    const element = b as unknown as { click(): void };
    element.click();
    element.click();
  });

const get = async (url: string, token = h.a.admin.token) => (await h.call(token, { method: 'GET', url })).json();

/** Counts the requests of `method` to a path matching `path` that the page sends from now on. */
function countSent(page: Page, method: string, path: RegExp): () => number {
  let n = 0;
  page.on('request', (r) => {
    if (r.method() === method && path.test(new URL(r.url()).pathname)) n += 1;
  });
  return () => n;
}

describe('journey: the rest of the forms do it once', () => {
  it('Place order double-clicked: one sales order', async () => {
    const requestId = await shopRequest(h, h.a.member.token, h.a.migratedLab, shop.products.M0530S!);
    const approved = await h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${requestId}`, payload: { status: 'APPROVED' } });
    expect(approved.statusCode, approved.body).toBe(200);
    const name = approved.json().item_name as string;
    const ordersBefore = (await get('/shop/orders?per_page=100', h.a.member.token)).length;
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/shop/checkout');
    await page.getByRole('combobox', { name: 'Lab' }).click();
    await page.getByRole('option', { name: 'Migrated lab A' }).click();
    await page.getByRole('checkbox', { name: `Check out ${name}` }).check();
    await page.getByRole('radio', { name: 'Purchase order' }).check();
    await page.getByRole('textbox', { name: 'Purchase order number' }).fill('PO-TWICE');
    await doubleClick(page.getByRole('button', { name: 'Place order' }));
    await page.waitForURL(/\/app\/shop\/orders\/[0-9a-f-]{36}$/);
    await page.waitForLoadState('networkidle');
    const orders = await get('/shop/orders?per_page=100', h.a.member.token);
    expect(orders).toHaveLength(ordersBefore + 1);
    expect(orders.filter((o: { purchase_order_number: string | null }) => o.purchase_order_number === 'PO-TWICE')).toHaveLength(1);
    await context.close();
  });

  it("the location dialog's Add and Rename double-clicked: one location, one rename", async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/locations?lab=${h.a.migratedLab.id}`);
    const open = async (path: string, what: string) => {
      await page.getByRole('button', { name: `Change ${path}`, exact: true }).click();
      await page.getByRole('menuitem', { name: what }).click();
      await page.getByRole('dialog').waitFor();
    };
    await open('Room 101', 'Add a sub-location');
    await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill('Twice rack');
    await doubleClick(page.getByRole('dialog').getByRole('button', { name: 'Add', exact: true }));
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.waitForLoadState('networkidle');
    const named = async (n: string) => (await get(`/labs/${h.a.migratedLab.id}/locations`)).filter((l: { name: string }) => l.name === n);
    expect(await named('Twice rack')).toHaveLength(1);

    const patches = countSent(page, 'PATCH', /^\/locations\/[0-9a-f-]{36}$/);
    await open('Room 101 / Twice rack', 'Rename');
    await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill('Once rack');
    await doubleClick(page.getByRole('dialog').getByRole('button', { name: 'Rename', exact: true }));
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.waitForLoadState('networkidle');
    expect(patches()).toBe(1);
    expect(await named('Once rack')).toHaveLength(1);
    expect(await named('Twice rack')).toHaveLength(0);
    await context.close();
  });

  it("a webhook's edit saved with a double-click: one change sent", async () => {
    const created = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/webhooks',
      payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/twice', name: 'Edited twice', is_enabled: false },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', `/app/webhooks/${id}`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const puts = countSent(page, 'PUT', new RegExp(`^/webhooks/${id}$`));
    await page.getByRole('textbox', { name: 'Name' }).fill('Edited once');
    await doubleClick(page.getByRole('button', { name: 'Save', exact: true }));
    await page.getByRole('heading', { name: 'Edited once' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(puts()).toBe(1);
    expect((await get(`/webhooks/${id}`)).name).toBe('Edited once');
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });
});
