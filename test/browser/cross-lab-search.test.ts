import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

// Issue 23, "Find anything I may see": the inventory searches every lab the person belongs to by default, inside
// words, with the lab as a column; a lab filter narrows and is remembered; a row says why it matched when the name
// does not; at 390 px each item is a card whose name, quantity and expiry are on screen.

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
  const post = async (token: string, payload: object) => {
    const res = await h.call(token, { method: 'POST', url: '/inventory-items', payload });
    expect(res.statusCode, res.body).toBe(201);
  };
  const [, freezer] = h.a.migratedLab.locationIds;
  await post(h.a.admin.token, {
    lab_id: h.a.legacyLab.id,
    name: 'Dimethyl sulfoxide',
    vendor: 'Carl Roth',
    unit_size: '1 L',
    quantity: '2',
    lot_number: 'GR3323',
    expiration_date: '2027-03-31',
  });
  await post(h.a.admin.token, {
    lab_id: h.a.migratedLab.id,
    name: 'Ethyl acetate',
    vendor: 'Merck',
    instances: [{ quantity: '1.5', lot_number: 'K5531', expiration_date: '2026-12-24', location_id: freezer }],
  });
  // Neither may ever show to the member: a lab of A they do not belong to, and another organization.
  await post(h.a.admin.token, { lab_id: h.a.otherLab.id, name: 'Ethylene glycol (other lab)', quantity: '1' });
  await post(h.b.admin.token, { lab_id: h.b.legacyLab.id, name: 'Methyl orange (org B)', quantity: '1' });
});
afterAll(() => h?.close());

/** The item names the list shows, once it shows `expected`. */
async function expectNames(page: Page, expected: string[]) {
  await expect
    .poll(
      () =>
        page
          .getByRole('main')
          .getByRole('link', { name: /ethyl|ethanol|GFP/i })
          .allInnerTexts(),
      { timeout: 8000 },
    )
    .toEqual(expected);
}

/** Wholly inside the 390 × 844 viewport: seen without scrolling sideways or down. */
async function expectOnScreen(element: Locator) {
  const box = await element.boundingBox();
  expect(box, await element.innerText()).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(844);
}

describe('journey: a member of two labs finds items of both by part of a word', () => {
  it('sees both labs with the lab column and why each matched, narrows by lab, and the filter is remembered', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/inventory');
    await page.getByLabel('Search').fill('ethyl');
    await expectNames(page, ['Dimethyl sulfoxide', 'Ethyl acetate']);
    const table = page.getByTestId('items-table');
    expect(await table.getByRole('columnheader', { name: 'Lab' }).count()).toBe(1);
    const row = (name: string) => table.getByRole('row').filter({ has: page.getByRole('link', { name }) });
    expect(await row('Dimethyl sulfoxide').getByTestId('item-lab').innerText()).toBe('Legacy lab A');
    expect(await row('Ethyl acetate').getByTestId('item-lab').innerText()).toBe('Migrated lab A');
    // Lot, location and unit where they matter.
    expect(await row('Dimethyl sulfoxide').innerText()).toContain('GR3323');
    expect(await row('Dimethyl sulfoxide').innerText()).toContain('2 × 1 L');
    expect(await row('Ethyl acetate').innerText()).toContain('Room 101 / Freezer A');
    expect(await page.getByTestId('match-reason').count()).toBe(0);
    await expectNoSeriousAxeViolations(page);

    // A part of a lot number: the row says it was the lot, and where that lot is.
    await page.getByLabel('Search').fill('553');
    await expectNames(page, ['Ethyl acetate']);
    expect(await row('Ethyl acetate').getByTestId('match-reason').innerText()).toBe('Found by lot K5531 in Room 101 / Freezer A');
    await page.getByLabel('Search').fill('r332');
    await expectNames(page, ['Dimethyl sulfoxide']);
    expect(await row('Dimethyl sulfoxide').getByTestId('match-reason').innerText()).toBe('Found by lot GR3323');

    // The lab filter narrows to one lab; the lab column goes.
    await page.getByLabel('Search').fill('ethyl');
    await expectNames(page, ['Dimethyl sulfoxide', 'Ethyl acetate']);
    await page.getByRole('combobox', { name: 'Lab' }).click();
    await page.getByRole('option', { name: 'Migrated lab A' }).click();
    await expectNames(page, ['Ethyl acetate']);
    expect(await table.getByRole('columnheader', { name: 'Lab' }).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('lab')).toBe(h.a.migratedLab.id);

    // Opened again without a lab in the address: the last lab filter is back.
    await page.goto('/app/inventory?q=ethyl');
    await expectNames(page, ['Ethyl acetate']);
    expect(await page.getByRole('combobox', { name: 'Lab' }).inputValue()).toBe('Migrated lab A');
    // Back to every lab, which is then what is remembered.
    await page.getByRole('combobox', { name: 'Lab' }).click();
    await page.getByRole('option', { name: 'All my labs' }).click();
    await expectNames(page, ['Dimethyl sulfoxide', 'Ethyl acetate']);
    await page.goto('/app/inventory?q=ethyl');
    await expectNames(page, ['Dimethyl sulfoxide', 'Ethyl acetate']);
    expect(new URL(page.url()).searchParams.get('lab')).toBeNull();
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('at 390 px each item is a card: its name, Quantity and Expires on screen, with its lab', async () => {
    const { page, context } = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await h.signIn(page, 'member-A@example.org', '/app/inventory?q=ethyl');
    const card = page.getByTestId('item-card').filter({ has: page.getByRole('link', { name: 'Dimethyl sulfoxide' }) });
    await card.waitFor();
    await card.scrollIntoViewIfNeeded();
    await expectOnScreen(card.getByRole('link', { name: 'Dimethyl sulfoxide' }));
    await expectOnScreen(card.getByText('Quantity', { exact: true }));
    await expectOnScreen(card.getByText('2 × 1 L', { exact: true }));
    await expectOnScreen(card.getByText('Expires', { exact: true }));
    await expectOnScreen(card.getByText('2027-03-31', { exact: true }));
    expect(await card.innerText()).toContain('Legacy lab A');
    expect(await page.getByTestId('item-card').count()).toBe(2);
    await expectNoSidewaysScroll(page);
    await expectNoSeriousAxeViolations(page);
    await context.close();
  });
});
