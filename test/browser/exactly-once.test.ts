// Exactly once (docs/web.md): a double-click, or going back after a success and sending the form again, makes one
// row and one adjustment. The double-click is two clicks in one task, as a quick double-click reaches the page before
// React has re-rendered the button as busy; each count is read through the API.

import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { addItem } from '../helpers/data.js';
import { fillNewRequest } from '../helpers/request-form.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

/** Two clicks before the page can react to the first. */
const doubleClick = (button: Locator) =>
  button.evaluate((b) => {
    const element = b as unknown as { click(): void };
    element.click();
    element.click();
  });

const get = async (url: string, token = h.a.admin.token) => (await h.call(token, { method: 'GET', url })).json();
const itemsNamed = async (name: string) =>
  (await get(`/inventory-items?lab_id=${h.a.legacyLab.id}&per_page=100`)).filter((i: { name: string }) => i.name === name);
const requestsNamed = async (name: string) =>
  (await get('/order-requests?per_page=100')).filter((r: { item_name: string }) => r.item_name === name);

async function settle(page: Page) {
  // Whatever a second submit would have sent has arrived by the time the page has been quiet for a moment.
  await page.waitForLoadState('networkidle');
}

describe('journey: a double-click does it once', () => {
  it('Create item, then back and Create item again: one item', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', `/app/inventory/items/new?lab=${h.a.legacyLab.id}`);
    await page.getByRole('textbox', { name: 'Name' }).fill('Double-clicked acetone');
    await page.getByRole('textbox', { name: 'Quantity' }).fill('2.5');
    await doubleClick(page.getByRole('button', { name: 'Create item' }));
    await page.waitForURL(/\/app\/inventory\/items\/[0-9a-f-]{36}$/);
    await settle(page);
    const items = await itemsNamed('Double-clicked acetone');
    expect(items).toHaveLength(1);
    expect(items[0].quantity).toBe('2.5');

    // Back to the form: sending the same item again is the same intention, answered with the first item.
    await page.goBack();
    await page.getByRole('textbox', { name: 'Name' }).fill('Double-clicked acetone');
    await page.getByRole('textbox', { name: 'Quantity' }).fill('2.5');
    await page.getByRole('button', { name: 'Create item' }).click();
    await page.waitForURL(new RegExp(`/app/inventory/items/${items[0].id}$`));
    await settle(page);
    expect(await itemsNamed('Double-clicked acetone')).toHaveLength(1);
    await context.close();
  });

  it('Request: one order request', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/order-requests/new');
    await fillNewRequest(page, { item: 'Double-clicked antibody', catalog: 'ab-1', quantity: '2', unitPrice: '310' });
    await doubleClick(page.getByRole('button', { name: 'Request' }));
    await page.waitForURL(/\/app\/order-requests\/[0-9a-f-]{36}$/);
    await settle(page);
    expect(await requestsNamed('Double-clicked antibody')).toHaveLength(1);
    await context.close();
  });

  it('Reorder: one order request, with the item unit size', async () => {
    const item = await addItem(h, h.a.admin.actor, {
      labId: h.a.legacyLab.id,
      name: 'Double-clicked gloves',
      typeId: h.a.legacyLab.typeId,
      vendor: 'Kimtech',
      catalogNumber: 'K-90',
      unitSize: 'box of 100',
      quantity: '1',
    });
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/inventory/items/${item.id}`);
    await page.getByRole('button', { name: 'Reorder…' }).click();
    await page.getByRole('textbox', { name: 'Unit price' }).fill('12');
    await page.getByRole('textbox', { name: 'Currency' }).fill('EUR');
    await doubleClick(page.getByRole('button', { name: 'Create order request' }));
    await page.waitForURL(/\/app\/order-requests\/[0-9a-f-]{36}$/);
    await settle(page);
    const made = await requestsNamed('Double-clicked gloves');
    expect(made).toHaveLength(1);
    expect(made[0].unit_size).toBe('box of 100');
    await context.close();
  });

  it('Adjust: 4.5 less 0.2 is 4.3, one adjustment', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Double-clicked ethanol', quantity: '4.5' });
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/inventory/items/${item.id}`);
    await page.getByLabel('Change by').fill('-0.2');
    await page.getByLabel('Note').fill('western blot');
    await doubleClick(page.getByRole('button', { name: 'Adjust' }));
    await page.getByTestId('history-table').getByText('western blot').waitFor();
    await settle(page);
    expect((await get(`/inventory-items/${item.id}`)).quantity).toBe('4.3');
    const history = await get(`/inventory-items/${item.id}/history`);
    expect(history.filter((c: { note?: string | null }) => JSON.stringify(c).includes('western blot'))).toHaveLength(1);
    await context.close();
  });

  it('Create token: one token', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/settings');
    await page.getByLabel("New token's name").fill('Double-clicked token');
    await doubleClick(page.getByRole('button', { name: 'Create token' }));
    await page.getByTestId('new-token').waitFor();
    await settle(page);
    const tokens = (await get('/user/tokens?per_page=100', h.a.member.token)).filter(
      (t: { name: string }) => t.name === 'Double-clicked token',
    );
    expect(tokens).toHaveLength(1);
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('Create webhook: one webhook', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', '/app/webhooks');
    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Double-clicked hook');
    await page.getByRole('textbox', { name: 'Receiver URL' }).fill('https://hooks.example.org/double');
    await doubleClick(page.getByRole('button', { name: 'Create webhook' }));
    await page.getByTestId('signing-key').waitFor();
    await settle(page);
    const hooks = (await get('/webhooks?per_page=100')).filter((w: { name: string | null }) => w.name === 'Double-clicked hook');
    expect(hooks).toHaveLength(1);
    await context.close();
  });
});
