import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { fillNewRequest } from '../helpers/request-form.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

describe('journey: request, approve, order, receive into a location', () => {
  it('a member requests a product, it moves through the buttons the table allows, and the received goods are an instance', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/order-requests/new');
    await fillNewRequest(page, { item: 'Anti-RFP rabbit', catalog: 'ab-62341', quantity: '2', unitPrice: '310' });
    await page.getByRole('button', { name: 'Request' }).click();

    await page.waitForURL(/\/app\/order-requests\/[0-9a-f-]{36}$/);
    const orderId = page.url().split('/').pop()!;
    expect((await h.call(h.a.member.token, { method: 'GET', url: `/order-requests/${orderId}` })).json().unit_price).toBe('310.00');
    expect(await page.getByTestId('order-status').innerText()).toBe('Created');
    // Only the moves the table allows from CREATED.
    expect(await page.getByRole('button', { name: 'Receive…' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('order-status').getByText('Approved').waitFor();
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Mark ordered…' }).click();
    await page.getByRole('dialog', { name: 'Mark ordered' }).getByRole('button', { name: 'Mark ordered', exact: true }).click();
    await page.getByTestId('order-status').getByText('Ordered').waitFor();

    await page.getByRole('button', { name: 'Receive…' }).click();
    await page.getByLabel('Lot number').fill('LOT-77');
    await page.getByLabel('Expires on').fill('2027-06-30');
    await page.getByRole('combobox', { name: 'Location' }).click();
    await page.getByRole('option', { name: 'Room 101 / Freezer A', exact: true }).click();
    await page.getByRole('button', { name: 'Receive', exact: true }).click();
    await page.getByTestId('order-status').getByText('Received').waitFor();
    expect(await page.getByRole('button', { name: 'Cancel' }).count()).toBe(0);

    const order = (await h.call(h.a.member.token, { method: 'GET', url: `/order-requests/${orderId}` })).json();
    expect(order.status).toBe('RECEIVED');
    const items = (
      await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items?lab_id=${h.a.migratedLab.id}&q=ab-62341` })
    ).json();
    expect(items).toHaveLength(1);
    await page.goto(`/app/inventory/items/${items[0].id}`);
    const instances = await page.getByTestId('instances-table').innerText();
    expect(instances).toContain('LOT-77');
    expect(instances).toContain('2027-06-30');
    expect(instances).toContain('Room 101 / Freezer A');
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it("another organization's request shows not found", async () => {
    const foreign = await h.call(h.b.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: {
        lab_id: h.b.legacyLab.id,
        type_id: h.b.legacyLab.typeId,
        name: 'Secret reagent',
        vendor_name: 'V',
        catalog_number: 'C',
        price: { amount: '1.00', currency: 'USD' },
        quantity: 1,
      },
    });
    expect(foreign.statusCode, foreign.body).toBe(201);
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', new URL(foreign.json().app_url).pathname);
    await page.getByTestId('not-found').waitFor();
    expect(await page.content()).not.toContain('Secret reagent');
    await context.close();
  });
});
