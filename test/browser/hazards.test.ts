// Journey (issue 26, docs/hazards.md): a member records an item's hazard statements by searching the list of
// statements, saves once (double-clicked), sees the pictograms, signal word and statements on the item page and in
// the inventory list, filters the list by hazard class, and marks a safety data sheet with an old revision date,
// which the page says is due for review. At 390 px the hazards and the sheet's line are on screen.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdf, upload } from '../api/attachments/_attachments.js';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { addItem } from '../helpers/data.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const SHOTS = process.env.HAZARD_SCREENSHOTS;

describe('journey: hazards of a bottle', () => {
  it('record statements, see the pictograms on the page and in the list, filter by class, mark an old SDS', async () => {
    const lab = h.a.legacyLab;
    const item = await addItem(h, h.a.admin.actor, { labId: lab.id, name: 'Ethanol absolute', quantity: '2' });
    await addItem(h, h.a.admin.actor, { labId: lab.id, name: 'Sodium chloride', quantity: '1' });
    await upload(h, h.a.admin.token, { kind: 'item', itemId: item.id }, pdf('SDS'), 'ethanol-sds.pdf');
    const { page } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/inventory/items/${item.id}`);
    const card = page.getByTestId('item-hazards');
    await card.getByText('No hazard statements recorded.').waitFor();
    await card.getByRole('button', { name: 'Edit hazards' }).click();
    await card.getByRole('radio', { name: 'Its own hazard statements' }).check();
    const picker = card.getByRole('combobox', { name: /Hazard statements/ });
    await picker.fill('highly flammable liquid');
    await page.getByRole('option', { name: 'H225 Highly flammable liquid and vapour' }).click();
    await picker.fill('H319');
    await page.getByRole('option', { name: /^H319 / }).click();
    await page.keyboard.press('Escape');
    await card.getByRole('button', { name: 'Save hazards' }).dblclick();
    await card.getByTestId('signal-word').getByText('Danger').waitFor();
    await card.getByText('Highly flammable liquid and vapour').waitFor();
    expect(await card.getByRole('img', { name: 'Flame' }).count()).toBe(1);
    expect(await card.getByRole('img', { name: 'Exclamation mark' }).count()).toBe(1);
    await card.getByText(/Recorded on this item, set by Max MemberA/).waitFor();
    // Saved once: one line of history, in words.
    const history = (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${item.id}/history` })).json();
    expect(history.filter((c: any) => c.field === 'hazard_statements')).toHaveLength(1);
    await page.getByText('set the hazard statements to H225, H319').waitFor();
    await expectNoSeriousAxeViolations(page);

    // The safety data sheet: marked with a revision date more than five years ago.
    const sds = page.getByTestId('sds-review');
    await sds.getByRole('button', { name: 'Set the revision date of a safety data sheet' }).click();
    await sds.getByPlaceholder('Choose a document').click();
    await page.getByRole('option', { name: 'ethanol-sds.pdf (this item)' }).click();
    await sds.getByLabel('Revised on').fill('2019-03-12');
    await sds.getByRole('button', { name: 'Save' }).click();
    await sds.getByText(/revised 12 March 2019 — older than 5 years/).waitFor();

    // The list: the pictograms in the row, and the filter by hazard class.
    await page.goto(`${h.origin}/app/inventory?lab=${lab.id}&hazard=flammable-liquid`);
    await page.getByTestId('items-table').getByText('Ethanol absolute').waitFor();
    expect(await page.getByTestId('items-table').getByText('Sodium chloride').count()).toBe(0);
    await page.getByTestId('items-table').getByRole('img', { name: 'Flame' }).waitFor();
  });

  it('at 390 px the item page shows the pictograms, the signal word and the statements', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Sulfuric acid 96 %', quantity: '1' });
    await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${item.id}/hazards`,
      payload: { hazard_statements: ['H290', 'H314'] },
    });
    const { page } = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await h.signIn(page, 'member-A@example.org', `/app/inventory/items/${item.id}`);
    const card = page.getByTestId('item-hazards');
    await card.getByRole('img', { name: 'Corrosion' }).waitFor();
    await card.scrollIntoViewIfNeeded();
    await expect.poll(() => card.getByTestId('signal-word').isVisible()).toBe(true);
    await card.getByText('Causes severe skin burns and eye damage').waitFor();
    await expectNoSidewaysScroll(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/hazards-390.png` });
  });
});
