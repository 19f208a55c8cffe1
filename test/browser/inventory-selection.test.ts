// Journey (issue 25, "print a selection"; docs/labels.md): in the inventory list a member ticks two items on page 1
// and one on page 2, changes the search (the selection stays), prints, and the downloaded PDF holds the labels of
// exactly those three items, read back with MuPDF and ZXing. Clearing ends the selection. At 390 px each card has
// its checkbox.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem } from '../../src/inventory/items.js';
import { decode, pageCount, renderPage } from '../api/labels/_decode.js';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
/** "Buffer 01" … "Buffer 27" in A's legacy lab, by name: 25 on page 1 (with the list sorted by name). */
const ids = new Map<string, string>();
beforeAll(async () => {
  h = await startBrowserHarness();
  for (let n = 1; n <= 27; n++) {
    const name = `Buffer ${String(n).padStart(2, '0')}`;
    const item = await createItem(h.deps, h.a.admin.actor, { labId: h.a.legacyLab.id, name, typeId: h.a.legacyLab.typeId, quantity: '1' });
    ids.set(name, item.id);
  }
});
afterAll(() => h?.close());

const SHOTS = process.env.SELECTION_SCREENSHOTS;

const codeOf = async (itemId: string) =>
  (
    await h.deps.db
      .selectFrom('label_codes')
      .select('code')
      .where('kind', '=', 'item')
      .where('target_id', '=', itemId)
      .executeTakeFirstOrThrow()
  ).code;

describe('journey: print the labels of a selection', () => {
  it('two items on page 1, one on page 2, a new search: the PDF holds exactly those three labels', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/inventory?lab=${h.a.legacyLab.id}&sort=name`);
    const table = page.getByTestId('items-table');
    await table.getByRole('checkbox', { name: 'Select Buffer 01' }).waitFor();
    await page.getByRole('button', { name: 'Print labels of these items' }).waitFor();
    await table.getByRole('checkbox', { name: 'Select Buffer 02' }).check();
    await table.getByRole('checkbox', { name: 'Select Buffer 05' }).check();
    await page.getByTestId('selected-count').getByText('2 selected').waitFor();
    // Half of the page: "Select all on this page" is neither on nor off.
    expect(await page.getByRole('checkbox', { name: 'Select all on this page' }).getAttribute('data-indeterminate')).toBe('true');

    await page.getByRole('button', { name: 'Page 2' }).click();
    await table.getByRole('checkbox', { name: 'Select Buffer 27' }).check();
    await page.getByTestId('selected-count').getByText('3 selected (1 on this page)').waitFor();
    // Another search: the selection stays, and what it holds is still printed.
    await page.getByRole('textbox', { name: 'Search' }).fill('Buffer 1');
    await page.waitForURL(/q=Buffer/);
    await table.getByRole('checkbox', { name: 'Select Buffer 10' }).waitFor();
    await page.getByTestId('selected-count').getByText('3 selected (0 on this page)').waitFor();
    expect(await table.getByRole('checkbox', { name: 'Select Buffer 10' }).isChecked()).toBe(false);
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/inventory-selection-1280.png`, fullPage: true });

    await page.getByRole('button', { name: 'Print labels of 3 selected items' }).click();
    const dialog = page.getByTestId('print-labels');
    await dialog.getByRole('combobox', { name: 'Label stock' }).click();
    await page.getByRole('option', { name: 'Thermal roll, 2 × 1 in' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download' }).click()]);
    const pdf = new Uint8Array(readFileSync((await download.path())!));
    // One roll label per page: three pages, each with its item's code (Code 128) and address (QR code).
    expect(pageCount(pdf)).toBe(3);
    const found: string[] = [];
    for (let i = 0; i < 3; i++) found.push(...(await decode(renderPage(pdf, i, 300).image)).map((r) => r.text));
    const codes = await Promise.all(['Buffer 02', 'Buffer 05', 'Buffer 27'].map((n) => codeOf(ids.get(n)!)));
    expect(found.sort()).toEqual([...codes, ...codes.map((c) => `${h.origin}/app/c/${c}`)].sort());
    await page.keyboard.press('Escape');

    // Kept when the person opens an item and comes back; cleared only when asked.
    await page.goto(`/app/inventory/items/${ids.get('Buffer 02')}`);
    await page.goBack();
    await page.getByTestId('selected-count').getByText('3 selected (0 on this page)').waitFor();
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await page.getByRole('button', { name: 'Print labels of these items' }).waitFor();
    expect(await page.getByTestId('selected-count').count()).toBe(0);
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('at 390 px every card has its checkbox, and the selection and its print button are on screen', async () => {
    const context = await h.browser.newContext({ baseURL: h.origin, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/inventory?lab=${h.a.legacyLab.id}&sort=name`);
    const cards = page.getByTestId('item-card');
    await cards.first().waitFor();
    expect(await cards.getByRole('checkbox').count()).toBe(await cards.count());
    await cards.filter({ hasText: 'Buffer 01' }).getByRole('checkbox', { name: 'Select Buffer 01' }).check();
    await cards.filter({ hasText: 'Buffer 03' }).getByRole('checkbox', { name: 'Select Buffer 03' }).check();
    await page.getByTestId('selected-count').getByText('2 selected').waitFor();
    expect(await page.getByRole('button', { name: 'Print labels of 2 selected items' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Clear selection' }).isVisible()).toBe(true);
    await expectNoSidewaysScroll(page);
    if (SHOTS) {
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: `${SHOTS}/inventory-selection-390.png` });
    }
    await context.close();
  });
});
