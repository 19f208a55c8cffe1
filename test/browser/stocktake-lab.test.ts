// Journey (issue 25, stocktake of a lab without instances; docs/stocktake.md): from the inventory list a member
// starts the count of a lab that keeps its locations on each item, ticks one item, counts another's quantity, scans
// the third's own label (as a keyboard-wedge scanner types it), leaves and resumes while a colleague counts, and
// applies it once (double-clicked); the items' quantities and history follow. At 390 px the page shows what the
// person came for.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countItem, itemQuantity, makeLegacyLab } from '../api/stocktake/_stocktake.js';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const SHOTS = process.env.STOCKTAKE_SCREENSHOTS;

async function codeOf(itemId: string): Promise<string> {
  const res = await h.call(h.a.admin.token, { method: 'GET', url: `/codes?item_id=${itemId}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()[0].code;
}

describe('journey: count a lab without instances', () => {
  it('start from the inventory, tick, count, scan, resume, apply once; the quantities and history follow', async () => {
    const s = await makeLegacyLab(h);
    const names = await Promise.all(
      s.itemIds.map(async (id) => (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${id}` })).json().name as string),
    );
    const labName = (await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${s.labId}` })).json().name as string;
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/inventory?lab=${s.labId}`);
    await page.getByRole('button', { name: 'Count this lab' }).click();
    await page.getByRole('heading', { name: `Count of ${labName}` }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    await expect.poll(() => page.getByTestId('count-line').count()).toBe(3);
    await page.getByTestId('count-line').filter({ hasText: names[0] }).getByText('at Cabinet 1 / Shelf A').waitFor();
    await expectNoSeriousAxeViolations(page);

    const line = (n: number) => page.getByTestId('count-line').filter({ hasText: names[n] });
    await line(1).getByRole('checkbox', { name: 'It is here' }).click();
    await line(1).getByText('As recorded').waitFor();
    await line(0)
      .getByRole('textbox', { name: /Counted quantity/ })
      .fill('4');
    await line(0).getByRole('button', { name: 'Save' }).click();
    await line(0).getByText('Counted 4, recorded 5').waitFor();

    // The third item's own label, typed by a wedge scanner while nothing is focused: counted as recorded.
    await page.evaluate('document.activeElement?.blur()');
    await page.keyboard.type(await codeOf(s.itemIds[2]));
    await page.keyboard.press('Enter');
    await page
      .getByTestId('scan-result')
      .getByText(new RegExp(`^Counted: ${names[2]}`))
      .waitFor();
    await line(2).getByText('As recorded').waitFor();
    // A container's label of another lab is not an item of this count.
    const field = page.getByRole('textbox', { name: 'Scan or type a code' });
    const other = (await h.call(h.a.admin.token, { method: 'GET', url: `/codes?instance_id=${h.a.migratedLab.instanceIds[0]}` })).json()[0];
    await field.fill(other.code);
    await field.press('Enter');
    await page
      .getByTestId('scan-result')
      .getByText(/not an item of this lab, so it is not counted here/)
      .waitFor();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/stocktake-lab-1280.png`, fullPage: true });

    // Leave; a colleague counts the first item again meanwhile; resume from the inventory.
    await page.goto(`/app/inventory?lab=${s.labId}`);
    expect((await countItem(h, h.a.admin.token, id, s.itemIds[0], { quantity: '3' })).statusCode).toBe(200);
    await page.getByRole('button', { name: 'Count this lab' }).click();
    await page.waitForURL(new RegExp(`/app/stocktakes/${id}$`));
    await page
      .getByTestId('count-summary')
      .getByText(/^3 of 3 counted · 0 not counted yet · 1 different/)
      .waitFor();
    await line(0).getByText('Counted 3, recorded 5').waitFor();

    await page.getByRole('button', { name: 'Apply count…' }).click();
    const changes = page.getByTestId('apply-changes');
    await changes.getByText('1 quantity changes to what was counted.').waitFor();
    await changes.getByText('Every item was counted.').waitFor();
    await page.getByRole('button', { name: 'Apply count', exact: true }).dblclick();
    await page
      .getByTestId('count-status')
      .getByText(/^Applied .* by Max MemberA\./)
      .waitFor();
    expect(await itemQuantity(h, s.itemIds[0])).toBe('3');
    expect(await itemQuantity(h, s.itemIds[1])).toBe('2');
    const history = (await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items/${s.itemIds[0]}/history` })).json();
    expect(history.filter((c: any) => c.stocktake_id === id)).toHaveLength(1);
    // The item's history names the count, linked.
    await page.goto(`/app/inventory/items/${s.itemIds[0]}`);
    const entry = page.getByTestId('history-entry').filter({ hasText: `Stocktake of ${labName}` });
    await entry.getByRole('link', { name: 'the count' }).waitFor();
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('at 390 px the count page shows the code field, the summary and each item with its tick on screen', async () => {
    const s = await makeLegacyLab(h);
    const started = await h.call(h.a.member.token, { method: 'POST', url: '/stocktakes', payload: { lab_id: s.labId } });
    expect(started.statusCode, started.body).toBe(201);
    const { page, context } = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await h.signIn(page, 'member-A@example.org', `/app/stocktakes/${started.json().id}`);
    await expect.poll(() => page.getByTestId('count-line').count()).toBe(3);
    for (const target of [
      page.getByRole('textbox', { name: 'Scan or type a code' }),
      page.getByTestId('count-summary'),
      page.getByRole('button', { name: 'Apply count…' }),
      page.getByRole('checkbox', { name: 'It is here' }).first(),
    ]) {
      await target.scrollIntoViewIfNeeded();
      expect(await target.isVisible()).toBe(true);
    }
    await expectNoSidewaysScroll(page);
    if (SHOTS) {
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: `${SHOTS}/stocktake-lab-390.png` });
    }
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });
});
