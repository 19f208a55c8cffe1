import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
let bufferTypeId: string;
beforeAll(async () => {
  h = await startBrowserHarness();
  const lab = h.a.migratedLab;
  const [room, freezer] = lab.locationIds;
  const type = await h.call(h.a.admin.token, { method: 'POST', url: '/types', payload: { lab_id: lab.id, name: 'Buffer' } });
  expect(type.statusCode, type.body).toBe(201);
  bufferTypeId = type.json().id;
  // Beside the fixture's Anti-GFP A (Antibody; Room 101 / Freezer A / Shelf 2, expires 2027-06-30).
  const items = [
    { name: 'Zeta buffer', type_id: bufferTypeId, instances: [{ quantity: '1', location_id: room, expiration_date: '2026-12-01' }] },
    { name: 'Alpha antibody', type_id: lab.typeId, instances: [{ quantity: '1', location_id: freezer, expiration_date: '2028-01-01' }] },
    { name: 'Beta antibody', type_id: lab.typeId, instances: [{ quantity: '1', expiration_date: '2026-12-15' }] },
  ];
  for (const item of items) {
    const res = await h.call(h.a.admin.token, { method: 'POST', url: '/inventory-items', payload: { lab_id: lab.id, ...item } });
    expect(res.statusCode, res.body).toBe(201);
  }
});
afterAll(() => h?.close());

/** The names in the table, top to bottom, once it shows `expected` (the list follows the URL asynchronously). */
async function expectNames(page: Page, expected: string[]) {
  await expect
    // The second cell: the first is the row's selection checkbox (docs/labels.md).
    .poll(() => page.getByTestId('items-table').locator('tbody tr td:nth-child(2)').allInnerTexts(), { timeout: 5000 })
    .toEqual(expected);
}

describe('journey: filter and sort the inventory; the URL holds the view', () => {
  it('type, location subtree and expiry combine; a column header sorts; the link reproduces the view; back steps back', async () => {
    const lab = h.a.migratedLab;
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/inventory?lab=${lab.id}`);
    await expectNames(page, ['Anti-GFP A', 'Zeta buffer', 'Alpha antibody', 'Beta antibody']);

    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Antibody' }).click();
    await expectNames(page, ['Anti-GFP A', 'Alpha antibody', 'Beta antibody']);
    // Freezer A and everything in it (Shelf 2): not Beta (no location) nor Zeta (Room 101 itself).
    await page.getByRole('combobox', { name: 'Location' }).click();
    await page.getByRole('option', { name: 'Room 101 / Freezer A', exact: true }).click();
    await expectNames(page, ['Anti-GFP A', 'Alpha antibody']);
    await page.getByRole('button', { name: 'Name, sort ascending' }).click();
    await expectNames(page, ['Alpha antibody', 'Anti-GFP A']);
    await page.getByRole('button', { name: 'Name, sort descending' }).click();
    await expectNames(page, ['Anti-GFP A', 'Alpha antibody']);
    expect(await page.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('descending');
    await page.getByLabel('Expiring before').fill('2027-12-31');
    await expectNames(page, ['Anti-GFP A']);
    expect(await page.getByTestId('items-total').innerText()).toBe('1 item');

    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({
      lab: lab.id,
      type: lab.typeId,
      location: lab.locationIds[1],
      sort: '-name',
      expiring: '2027-12-31',
    });
    await expectNoSeriousAxeViolations(page);

    // Back undoes the expiry filter, then the sort direction.
    await page.goBack();
    await expectNames(page, ['Anti-GFP A', 'Alpha antibody']);
    await page.goBack();
    await expectNames(page, ['Alpha antibody', 'Anti-GFP A']);
    await page.goForward();
    await expectNames(page, ['Anti-GFP A', 'Alpha antibody']);

    // The link alone (a fresh page) shows the same view, with the filters shown as chosen.
    const second = await context.newPage();
    await second.goto(url.pathname + url.search);
    await expectNames(second, ['Anti-GFP A']);
    expect(await second.getByLabel('Expiring before').inputValue()).toBe('2027-12-31');
    expect(await second.getByRole('combobox', { name: 'Type' }).inputValue()).toBe('Antibody');

    // Sorting by expiry, soonest first, across the whole lab (filters cleared).
    await second.getByRole('button', { name: 'Clear filters' }).click();
    await second.getByRole('button', { name: 'Expires, sort ascending' }).click();
    await expectNames(second, ['Zeta buffer', 'Beta antibody', 'Anti-GFP A', 'Alpha antibody']);
    // The search box combines with the filters and the order.
    await second.getByLabel('Search').fill('antibody');
    await expectNames(second, ['Beta antibody', 'Alpha antibody']);
    expect(new URL(second.url()).searchParams.get('q')).toBe('antibody');
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it("another organization's type or location id in the link gives an empty list, never its items", async () => {
    const foreignLocations = (await h.call(h.b.admin.token, { method: 'GET', url: `/labs/${h.b.migratedLab.id}/locations` })).json();
    expect(foreignLocations.length).toBeGreaterThan(0);
    const { page, context } = await h.newPage();
    const lab = h.a.migratedLab.id;
    await h.signIn(page, 'admin-A@example.org', `/app/inventory?lab=${lab}&type=${h.b.migratedLab.typeId}`);
    await page.getByTestId('no-items').waitFor();
    expect(await page.getByTestId('no-items').innerText()).toBe('No item matches these filters.');
    await page.goto(`/app/inventory?lab=${lab}&location=${foreignLocations[0].id}`);
    await page.getByTestId('no-items').waitFor();
    // And B's lab itself in the link: nothing of B's shows.
    await page.goto(`/app/inventory?lab=${h.b.migratedLab.id}`);
    await page.getByTestId('no-items').waitFor();
    expect(await page.content()).not.toContain('Anti-GFP B');
    await context.close();
  });
});

describe('journey: a search with more matches than are counted', () => {
  it('says "more than 1,000" and still pages on (docs/decisions/0014-bounded-search-counts.md)', async () => {
    const rows = Array.from({ length: 1030 }, (_, i) => `Bulkreagent ${i},1`);
    const imported = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/labs/${h.a.legacyLab.id}/inventory/import`,
      headers: { 'content-type': 'text/csv' },
      payload: `name,quantity\n${rows.join('\n')}\n`,
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', `/app/inventory?lab=${h.a.legacyLab.id}&q=bulkreagent`);
    await page.getByTestId('items-total').getByText('more than 1,000 items').waitFor();
    // Past the counted pages there is one more to go to: the 41st page of 25 holds items 1,001-1,025.
    await page.goto(`/app/inventory?lab=${h.a.legacyLab.id}&q=bulkreagent&page=41`);
    await page.getByTestId('items-table').getByRole('link').first().waitFor();
    expect(await page.getByTestId('items-table').getByRole('link').count()).toBe(25);
    await page.getByRole('button', { name: 'next page' }).click();
    await page.getByTestId('items-total').getByText('1,030 items').waitFor();
    expect(await page.getByTestId('items-table').getByRole('link').count()).toBe(5);
    await context.close();
  });
});
