import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const row = (page: Page, path: string) => page.locator(`[data-testid="location-row"][data-path="${path}"]`);
const locations = async (): Promise<{ id: string; name: string; parent_id: string | null; pathNames: string[] }[]> =>
  (await h.call(h.a.member.token, { method: 'GET', url: `/labs/${h.a.migratedLab.id}/locations` })).json();

/** Opens a location's menu and picks one of its changes. */
async function change(page: Page, path: string, what: string) {
  await page.getByRole('button', { name: `Change ${path}`, exact: true }).click();
  await page.getByRole('menuitem', { name: what }).click();
  await page.getByRole('dialog').waitFor();
  await page.getByRole('menu').waitFor({ state: 'detached' });
}

describe('journey: the location tree of a lab', () => {
  it('a member creates, renames, moves and deletes locations; a non-empty one is refused clearly; a name opens its inventory', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/locations?lab=${h.a.migratedLab.id}`);
    await row(page, 'Room 101 / Freezer A / Shelf 2').waitFor();
    await expectNoSeriousAxeViolations(page);

    await page.getByRole('textbox', { name: 'New root location' }).fill('Cold room');
    await page.getByRole('button', { name: 'Add root location' }).click();
    await row(page, 'Cold room').waitFor();

    await change(page, 'Cold room', 'Add a sub-location');
    await page.getByRole('textbox', { name: 'Name' }).fill('Rack 1');
    await expectNoSeriousAxeViolations(page);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await row(page, 'Cold room / Rack 1').waitFor();

    await change(page, 'Cold room / Rack 1', 'Rename');
    await page.getByRole('textbox', { name: 'Name' }).fill('Rack A');
    await page.getByRole('button', { name: 'Rename', exact: true }).click();
    await row(page, 'Cold room / Rack A').waitFor();

    await change(page, 'Cold room / Rack A', 'Move');
    await page.getByRole('combobox', { name: 'New parent' }).click();
    await page.getByRole('option', { name: 'Room 101', exact: true }).click();
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await row(page, 'Room 101 / Rack A').waitFor();
    const rack = (await locations()).find((l) => l.name === 'Rack A')!;
    expect(rack.pathNames).toEqual(['Room 101', 'Rack A']);
    expect(rack.parent_id).toBe(h.a.migratedLab.locationIds[0]);

    await change(page, 'Room 101 / Rack A', 'Delete');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await row(page, 'Room 101 / Rack A').waitFor({ state: 'detached' });
    expect((await locations()).map((l) => l.name)).not.toContain('Rack A');

    // The seeded instance is stored at Shelf 2: the server refuses, and the dialog says why and stays open.
    await change(page, 'Room 101 / Freezer A / Shelf 2', 'Delete');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    const refusal = dialog.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(/Not deleted[\s\S]*instances are stored at this location; move them first/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await locations()).map((l) => l.name)).toContain('Shelf 2');

    // And one with sub-locations.
    await change(page, 'Room 101', 'Delete');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByText('the location has sub-locations; move or delete them first').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Inventory in Room 101 / Freezer A', exact: true }).click();
    await page.waitForURL(/\/app\/inventory\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('lab')).toBe(h.a.migratedLab.id);
    // The inventory's own filter (`location`): the page lists what is stored there, and says where (it once linked
    // `location_id`, which the inventory page does not read, and showed the whole lab).
    expect(url.searchParams.get('location')).toBe(h.a.migratedLab.locationIds[1]);
    await expect.poll(() => page.getByRole('combobox', { name: 'Location' }).inputValue()).toBe('Room 101 / Freezer A');

    // A legacy lab has no tree: the page says so instead.
    await page.goto(`/app/locations?lab=${h.a.legacyLab.id}`);
    await page.getByTestId('legacy-lab').waitFor();
    expect(await page.getByTestId('location-tree').count()).toBe(0);
    await context.close();
    // The two refusals are 409 answers, which Chromium logs as failed loads; nothing else may be logged.
    expect(h.consoleErrors.filter((e) => !/status of 409/.test(e))).toEqual([]);
    expect(h.consoleErrors).toHaveLength(2);
  });
});
