// Journey (issue 23, "Tasks that are one step"): on the item page of a lab that uses instances, a person adds a bottle
// found on a shelf, moves it, corrects its lot and expiry, and archives it with a reason, each in one step and once;
// at 390 px an instance's quantity, lot, expiry, Save and Archive are on screen without sideways scrolling.

import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const itemOf = async (id: string) => (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${id}` })).json();
const historyOf = async (id: string) => (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${id}/history` })).json();
const card = (page: Page, lot: string) => page.getByRole('region', { name: `Instance: lot ${lot}` });

async function pick(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Inside the 390 px window, horizontally and vertically, once scrolled to. */
async function expectOnPhoneScreen(locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  const box = (await locator.boundingBox())!;
  expect(box, 'has a box').not.toBeNull();
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(844);
}

describe('journey: instances in one step each', () => {
  it('adds a bottle (double-clicked: one instance, 2.5 stays 2.5), moves it, corrects lot and expiry, archives it with a reason', async () => {
    const id = h.a.migratedLab.itemId;
    const before = await itemOf(id);
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/inventory/items/${id}`);
    await page.getByTestId('instances-table').waitFor();

    await page.getByRole('button', { name: 'Add an instance' }).click();
    const form = page.getByRole('form', { name: 'Add an instance' });
    await form.getByRole('textbox', { name: 'Quantity' }).fill('2.5');
    await form.getByRole('textbox', { name: 'Lot number' }).fill('FOUND-1');
    await form.getByLabel('Expires').fill('2028-05-01');
    await pick(page, form, 'Location', 'Room 101 / Freezer A');
    await form.getByRole('button', { name: 'Add instance' }).dblclick();
    await card(page, 'FOUND-1').waitFor();
    let item = await itemOf(id);
    const added = item.instances.filter((i: any) => i.lot_number === 'FOUND-1');
    expect(added).toHaveLength(1);
    expect(item.instances).toHaveLength(before.instances.length + 1);
    expect(added[0]).toMatchObject({ quantity: '2.5', expiration_date: '2028-05-01', location: { pathNames: ['Room 101', 'Freezer A'] } });
    await expectNoSeriousAxeViolations(page);

    // Move it to the shelf below.
    await pick(page, card(page, 'FOUND-1'), 'Location of lot FOUND-1', 'Room 101 / Freezer A / Shelf 2');
    await card(page, 'FOUND-1').getByRole('button', { name: 'Save lot FOUND-1' }).click();
    await card(page, 'FOUND-1').getByText('Room 101 / Freezer A / Shelf 2').waitFor();
    item = await itemOf(id);
    expect(item.instances.find((i: any) => i.id === added[0].id).location.pathNames).toEqual(['Room 101', 'Freezer A', 'Shelf 2']);

    // Correct the lot and the expiry in one save.
    await card(page, 'FOUND-1').getByRole('textbox', { name: 'Lot of lot FOUND-1' }).fill('FOUND-2');
    await card(page, 'FOUND-1').getByLabel('Expiry of lot FOUND-1').fill('2028-06-15');
    await card(page, 'FOUND-1').getByRole('button', { name: 'Save lot FOUND-1' }).dblclick();
    await card(page, 'FOUND-2').waitFor();
    item = await itemOf(id);
    expect(item.instances.find((i: any) => i.id === added[0].id)).toMatchObject({ lot_number: 'FOUND-2', expiration_date: '2028-06-15' });
    const lotChanges = (await historyOf(id)).filter((c: any) => c.field === 'instance.lot_number' && c.instance_id === added[0].id);
    expect(lotChanges).toHaveLength(1);

    // Archive it with a reason.
    await card(page, 'FOUND-2').getByRole('button', { name: 'Archive lot FOUND-2' }).click();
    await card(page, 'FOUND-2').getByRole('textbox', { name: 'Why does it leave?' }).fill('used up');
    await card(page, 'FOUND-2').getByRole('button', { name: 'Confirm archiving lot FOUND-2' }).dblclick();
    await card(page, 'FOUND-2').waitFor({ state: 'detached' });
    item = await itemOf(id);
    expect(item.instances.map((i: any) => i.id)).not.toContain(added[0].id);
    const archived = (await historyOf(id)).filter((c: any) => c.field === 'instance.archived' && c.instance_id === added[0].id);
    expect(archived).toHaveLength(1);
    expect(archived[0].note).toBe('used up');
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('at 390 px an instance card shows its quantity, lot, expiry, Save and Archive on screen', async () => {
    const id = h.a.migratedLab.itemId;
    const lot = (await itemOf(id)).instances.find((i: any) => i.lot_number).lot_number;
    const { page, context } = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await h.signIn(page, 'member-A@example.org', `/app/inventory/items/${id}`);
    const c = card(page, lot);
    await c.waitFor();
    for (const target of [
      c.getByRole('textbox', { name: `Quantity of lot ${lot}` }),
      c.getByRole('textbox', { name: `Lot of lot ${lot}` }),
      c.getByLabel(`Expiry of lot ${lot}`),
      c.getByRole('button', { name: `Save lot ${lot}` }),
      c.getByRole('button', { name: `Archive lot ${lot}` }),
    ]) {
      await expectOnPhoneScreen(target);
    }
    await expectNoSidewaysScroll(page);
    await expectNoSeriousAxeViolations(page);
    await context.close();
  });
});
