// Journey (issue 25, stocktake; docs/stocktake.md): a member starts a count of a freezer from the location tree,
// ticks a container, counts another's quantity, types the code of one recorded elsewhere (as a keyboard-wedge
// scanner does), leaves and resumes the count while a colleague counts too, and applies it with a confirmation that
// says what will change (double-clicked: applied once). At 390 px the count page shows what the person came for.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, instanceNow, makeShelf } from '../api/stocktake/_stocktake.js';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const SHOTS = process.env.STOCKTAKE_SCREENSHOTS;

async function codeOf(instanceId: string): Promise<string> {
  const res = await h.call(h.a.admin.token, { method: 'GET', url: `/codes?instance_id=${instanceId}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()[0].code;
}

describe('journey: count a freezer', () => {
  it('start from the tree, tick, count, scan, resume, apply once; the inventory and history follow', async () => {
    const s = await makeShelf(h);
    const root = (await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${h.a.migratedLab.id}/locations` }))
      .json()
      .find((l: any) => l.id === s.rootId);
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/locations?lab=${h.a.migratedLab.id}`);
    await page.getByRole('button', { name: `Change ${root.name}`, exact: true }).click();
    await page.getByRole('menuitem', { name: 'Count the stock here' }).click();
    await page.getByRole('heading', { name: `Count of ${root.name}` }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    await expect.poll(() => page.getByTestId('count-line').count()).toBe(2);
    await expectNoSeriousAxeViolations(page);

    // Tick the one at the root, count the one on the rack.
    const rootLine = page.getByTestId('count-line').filter({ hasText: 'lot L-ROOT' });
    await rootLine.getByRole('checkbox', { name: 'It is here' }).click();
    await page.getByTestId('count-line').filter({ hasText: 'lot L-ROOT' }).getByText('As recorded').waitFor();
    const childLine = page.getByTestId('count-line').filter({ hasText: 'lot L-CHILD' });
    await childLine.getByRole('textbox', { name: /Counted quantity/ }).fill('1.5');
    await childLine.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('count-line').filter({ hasText: 'lot L-CHILD' }).getByText('Counted 1.5, recorded 2').waitFor();

    // The bench's container, found in the freezer: a keyboard-wedge scanner types its code and Enter while nothing is
    // focused (after the Save above): the count takes the scan, the app-wide scan page does not open.
    const field = page.getByRole('textbox', { name: 'Scan or type a code' });
    await page.evaluate('document.activeElement?.blur()');
    await page.keyboard.type(await codeOf(s.instanceIds[2]));
    await page.keyboard.press('Enter');
    await page
      .getByTestId('scan-result')
      .getByText(/^Counted: Buffer/)
      .waitFor();
    await page.getByTestId('count-line').filter({ hasText: 'lot L-OUT' }).getByText('Unexpected').waitFor();
    await field.fill('NOSUCHCODE');
    await field.press('Enter');
    await page.getByTestId('scan-result').getByText('Code NOSUCHCODE: not found.').waitFor();

    // Leave, and resume from the location tree; meanwhile a colleague counts the root container's quantity.
    await page.goto(`/app/locations?lab=${h.a.migratedLab.id}`);
    expect((await count(h, h.a.admin.token, id, s.instanceIds[0], { quantity: '4' })).statusCode).toBe(200);
    await page.getByRole('link', { name: `Resume the count of ${root.name}` }).waitFor();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/locations-open-counts-1280.png`, fullPage: true });
    await page.getByRole('link', { name: `Resume the count of ${root.name}` }).click();
    await page
      .getByTestId('count-summary')
      .getByText(/^2 of 2 counted · 0 not counted yet · 1 unexpected · 2 different/)
      .waitFor();
    await page.getByTestId('count-line').filter({ hasText: 'lot L-ROOT' }).getByText('Counted 4, recorded 5').waitFor();

    await page.getByRole('button', { name: 'Apply count…' }).click();
    const changes = page.getByTestId('apply-changes');
    await changes.getByText('2 quantities change to what was counted.').waitFor();
    await changes.getByText('1 container moves to where it was found.').waitFor();
    await page.getByRole('button', { name: 'Apply count', exact: true }).dblclick();
    await page
      .getByTestId('count-status')
      .getByText(/^Applied .* by Max MemberA\./)
      .waitFor();

    expect(await instanceNow(h, s.itemId, s.instanceIds[0])).toMatchObject({ quantity: '4' });
    expect(await instanceNow(h, s.itemId, s.instanceIds[1])).toMatchObject({ quantity: '1.5' });
    expect((await instanceNow(h, s.itemId, s.instanceIds[2]))?.location?.pathNames).toEqual([root.name]);
    const history = (await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items/${s.itemId}/history` })).json();
    expect(history.filter((c: any) => c.stocktake_id === id)).toHaveLength(3);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/stocktake-applied-1280.png`, fullPage: true });
    // The item's history says it in sentences, each linked to the count.
    await page.goto(`/app/inventory/items/${s.itemId}`);
    const entries = page.getByTestId('history-entry');
    await entries.filter({ hasText: `Max MemberA set lot L-ROOT in ${root.name} to 4 as counted, 5 recorded (the count)` }).waitFor();
    await entries.filter({ hasText: `found lot L-OUT at ${root.name} in a count (recorded at Bench` }).waitFor();
    await entries.first().getByRole('link', { name: 'the count' }).waitFor();
    await context.close();
    // The unknown code's lookup is the one failed load (Chromium logs every 4xx).
    expect(h.consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 404 (Not Found)']);
    h.consoleErrors.length = 0;
  });

  it('at 390 px the count page shows the code field, the summary and each container with its tick on screen', async () => {
    const s = await makeShelf(h);
    const started = await h.call(h.a.member.token, { method: 'POST', url: '/stocktakes', payload: { location_id: s.rootId } });
    expect(started.statusCode, started.body).toBe(201);
    const { page, context } = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await h.signIn(page, 'member-A@example.org', `/app/stocktakes/${started.json().id}`);
    await expect.poll(() => page.getByTestId('count-line').count()).toBe(2);
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
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/stocktake-390.png`, fullPage: true });
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });
});
