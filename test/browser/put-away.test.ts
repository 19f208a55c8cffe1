// Journey (issue 23, put-away; docs/product.md §14): a shop delivery arrives in a lab that uses instances with no lot,
// expiry or location; it is on the put-away list, a member fills it in and puts it away in one step (double-clicked:
// once), it leaves the list, and the item page shows the lot and the place.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { placeOne, type ShopFixture, setupShop } from '../helpers/shop.js';

let h: BrowserHarness;
let shop: ShopFixture;
beforeAll(async () => {
  h = await startBrowserHarness();
  shop = await setupShop(h);
});
afterAll(() => h?.close());

/** A shop order of the migrated lab, shipped and delivered by the operator: the goods arrive with nothing but a quantity. */
async function deliverFromShop() {
  const { line } = await placeOne(h, h.a.admin.token, h.a.migratedLab, Object.values(shop.products)[0]!, 3);
  const shipment = await h.call(shop.operator.token, {
    method: 'POST',
    url: `/shop/order-items/${line.id}/shipments`,
    payload: { carrier: 'UPS', tracking: '1Z', quantity: 3 },
  });
  expect(shipment.statusCode, shipment.body).toBe(201);
  const delivered = await h.call(shop.operator.token, {
    method: 'POST',
    url: `/shop/shipments/${shipment.json().id}/deliver`,
    payload: {},
  });
  expect(delivered.statusCode, delivered.body).toBe(200);
  const due = (await h.call(h.a.member.token, { method: 'GET', url: `/labs/${h.a.migratedLab.id}/put-away` })).json();
  expect(due).toHaveLength(1);
  return due[0];
}

describe('journey: put away a shop delivery', () => {
  it('the delivery is listed, filled in one step, leaves the list, and the item page shows its lot and place', async () => {
    const row = await deliverFromShop();
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/put-away');
    const card = page.getByRole('form', { name: `To put away: ${row.item_name}` });
    await card.waitFor();
    await expectNoSeriousAxeViolations(page);

    await card.getByRole('textbox', { name: 'Lot number' }).fill('GR3323');
    await card.getByLabel('Expires').fill('2027-11-30');
    await card.getByRole('combobox', { name: 'Location' }).click();
    await page.getByRole('option', { name: 'Room 101 / Freezer A / Shelf 2', exact: true }).click();
    await card.getByRole('button', { name: `Put away ${row.item_name}` }).dblclick();
    await page.getByTestId('put-away-empty').waitFor();

    const item = (await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items/${row.item_id}` })).json();
    expect(item.instances.find((i: any) => i.id === row.instance_id)).toMatchObject({
      quantity: '3',
      lot_number: 'GR3323',
      expiration_date: '2027-11-30',
      location: { pathNames: ['Room 101', 'Freezer A', 'Shelf 2'] },
    });
    const history = (await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items/${row.item_id}/history` })).json();
    expect(history.filter((c: any) => c.field === 'instance.put_away')).toHaveLength(1);
    expect((await h.call(h.a.member.token, { method: 'GET', url: '/put-away' })).json()).toEqual([]);

    await page.goto(`/app/inventory/items/${row.item_id}`);
    const instances = await page.getByTestId('instances-table').innerText();
    expect(instances).toContain('Lot GR3323');
    expect(instances).toContain('Room 101 / Freezer A / Shelf 2');
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('at 390 px a row to put away shows its fields and the button on screen; "as it is" puts it away with nothing filled', async () => {
    const row = await deliverFromShop();
    const { page, context } = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await h.signIn(page, 'member-A@example.org', `/app/put-away?lab=${h.a.migratedLab.id}`);
    const card = page.getByRole('form', { name: `To put away: ${row.item_name}` });
    await card.waitFor();
    for (const target of [
      card.getByRole('textbox', { name: 'Lot number' }),
      card.getByLabel('Expires'),
      card.getByRole('combobox', { name: 'Location' }),
      card.getByRole('button', { name: `Put away ${row.item_name}` }),
    ]) {
      await target.scrollIntoViewIfNeeded();
      const box = (await target.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await expectNoSidewaysScroll(page);
    await card.getByRole('button', { name: `Put away ${row.item_name}` }).click();
    await page.getByTestId('put-away-empty').waitFor();
    expect((await h.call(h.a.member.token, { method: 'GET', url: '/put-away' })).json()).toEqual([]);
    await context.close();
  });
});
