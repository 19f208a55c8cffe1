// Journeys of labels (docs/labels.md): what a label's QR code opens (/app/c/{code} replaces itself with the thing's
// page; another organization's code is "not found", nothing more), and printing from the item and location pages:
// the downloaded PDF is read back (MuPDF + ZXing) and holds the container's code.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, renderPage } from '../api/labels/_decode.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const codeOf = async (kind: 'instance' | 'location' | 'item', id: string) =>
  (await h.deps.db.selectFrom('label_codes').select('code').where('kind', '=', kind).where('target_id', '=', id).executeTakeFirstOrThrow())
    .code;

describe('journey: open a label', () => {
  it("a member opens a container's label address and lands on its item; Back does not return to the label", async () => {
    const code = await codeOf('instance', h.a.migratedLab.instanceIds[0]!);
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/inventory');
    await page.goto(`/app/c/${code.toLowerCase()}`);
    await page.waitForURL(new RegExp(`/app/inventory/items/${h.a.migratedLab.itemId}\\?instance=`));
    await page.getByTestId('instances-table').waitFor();
    // The scanned container is the marked one.
    await page.locator('[data-testid="instance-card"][data-focused="true"]').getByLabel(`Label code ${code}`).waitFor();
    expect(await page.locator('[data-testid="instance-card"][data-focused="true"]').count()).toBe(1);
    await page.goBack();
    await page.waitForURL(/\/app\/inventory$/);
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it("a location's label opens the location tree; another organization's label is not found", async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/');
    await page.goto(`/app/c/${await codeOf('location', h.a.migratedLab.locationIds[1]!)}`);
    await page.waitForURL(new RegExp(`/app/locations\\?lab=${h.a.migratedLab.id}&location=${h.a.migratedLab.locationIds[1]}`));
    await page.getByTestId('location-label').getByText('Freezer A').first().waitFor();
    await page.goto(`/app/c/${await codeOf('instance', h.b.migratedLab.instanceIds[0]!)}`);
    await page.getByTestId('not-found').waitFor();
    expect(await page.getByTestId('not-found').innerText()).toContain('This label does not exist, or it is not yours to see.');
    expect(await page.locator('body').innerText()).not.toContain('Anti-GFP B');
    await context.close();
  });

  it('the item page shows each container\'s code; "Print label" downloads a PDF whose QR code opens that container', async () => {
    // The journey before asked for another organization's code on purpose: its 404 is not this one's.
    h.consoleErrors.length = 0;
    const code = await codeOf('instance', h.a.migratedLab.instanceIds[0]!);
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/inventory/items/${h.a.migratedLab.itemId}`);
    const card = page.getByTestId('instance-card').filter({ hasText: 'Lot A1' });
    await card.getByLabel(`Label code ${code}`).waitFor();
    await card.getByRole('button', { name: 'Print label' }).click();
    const dialog = page.getByTestId('print-labels');
    await dialog.waitFor();
    if (process.env.LABELS_SCREENSHOTS)
      await page.screenshot({ path: `${process.env.LABELS_SCREENSHOTS}/item-print-1280.png`, fullPage: true });
    await dialog.getByRole('combobox', { name: 'Label stock' }).click();
    await page.getByRole('option', { name: 'Thermal roll, 2 × 1 in' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^labels-roll-2x1-.*\.pdf$/);
    const pdf = new Uint8Array(readFileSync((await download.path())!));
    const found = await decode(renderPage(pdf, 0, 300).image);
    expect(found.map((r) => r.text).sort()).toEqual([code, `${h.origin}/app/c/${code}`].sort());
    await dialog.getByTestId('labels-downloaded').waitFor();
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it("at a phone's width, a location's label shows its code and both ways to print", async () => {
    const locationId = h.a.migratedLab.locationIds[2]!;
    const code = await codeOf('location', locationId);
    const context = await h.browser.newContext({ baseURL: h.origin, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/c/${code}`);
    const label = page.getByTestId('location-label');
    await label.getByLabel(`Label code ${code}`).waitFor();
    if (process.env.LABELS_SCREENSHOTS) {
      await page.goto(`/app/inventory/items/${h.a.migratedLab.itemId}`);
      await page.getByTestId('instance-card').first().getByTestId('label-code').waitFor();
      await page.screenshot({ path: `${process.env.LABELS_SCREENSHOTS}/item-390.png`, fullPage: true });
      await page.goto(`/app/c/${code}`);
      await label.getByLabel(`Label code ${code}`).waitFor();
    }
    for (const name of ['Print its label', 'Print labels of what is stored here'])
      expect(await label.getByRole('button', { name }).isVisible()).toBe(true);
    if (process.env.LABELS_SCREENSHOTS) await page.screenshot({ path: `${process.env.LABELS_SCREENSHOTS}/location-label-390.png` });
    await context.close();
  });
});
