import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeImportSlot } from '../../src/inventory/csv/slots.js';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

// CSV import and export in the app (issue 23, docs/csv.md, docs/web.md): a lab manager's file with two bad rows is
// checked (both listed by line, nothing imported), fixed and imported once however often Import is clicked; the
// rows are in the inventory and in the exported file; another import running is said in words with a retry; the
// page works on a phone; another organization's lab is not found.

let h: BrowserHarness;
let labId: string;
const importPath = () => `/app/labs/${labId}/import`;
beforeAll(async () => {
  h = await startBrowserHarness();
  labId = h.a.migratedLab.id;
  const res = await h.call(h.a.admin.token, {
    method: 'PUT',
    url: `/organization/labs/${labId}/members/${h.a.member.id}`,
    payload: { role: 'manager' },
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => h?.close());

// Lines 3 (a quantity in letters) and 5 (a date as people write it) are wrong; the header uses people's names.
const BAD = [
  'Name,Type,Vendor,Catalog #,Qty,Lot,Expiry,Location',
  'Anti-GFP rabbit,Antibody,Abcam,ab290,2,GR3323,2027-03-31,Cold room / Rack 1',
  'Anti-Tubulin mouse,Antibody,Sigma,T5168,two,L1,2027-01-01,Cold room / Rack 1',
  'Anti-Actin rabbit,Antibody,CST,4970,1,L2,2027-01-01,Cold room / Rack 2',
  'Anti-Vimentin rabbit,Antibody,CST,5741,1,L3,31/12/2027,Cold room / Rack 2',
].join('\r\n');
const GOOD = BAD.replace(',two,', ',2,').replace('31/12/2027', '2027-12-31');

const NAMES = ['Anti-Actin rabbit', 'Anti-GFP rabbit', 'Anti-Tubulin mouse', 'Anti-Vimentin rabbit'];
const imported = () =>
  h.deps.db.selectFrom('inventory_items').select(['id', 'name']).where('lab_id', '=', labId).where('name', 'in', NAMES).execute();

async function chooseFile(page: Page, text: string, name = 'antibodies.csv') {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: /^Choose (a CSV|another) file$/ }).click();
  await (await chooser).setFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
}

/** Wholly inside the window as it is now, without scrolling: what a person sees. */
async function expectInView(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  const view = page.viewportSize()!;
  expect(box, 'on the page').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(view.width);
  expect(box!.y + box!.height).toBeLessThanOrEqual(view.height);
}

describe('journey: a lab manager imports a spreadsheet and exports the inventory', () => {
  it('checks a file with two bad rows (both listed by line, nothing imported), then imports the fixed file once', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/labs');
    await page.getByRole('link', { name: 'Settings of Migrated lab A' }).click();
    await page.getByRole('link', { name: 'Import from a CSV file' }).click();
    await page.waitForURL(`**${importPath()}`);
    await page.getByTestId('csv-columns').waitFor();

    await chooseFile(page, BAD);
    const problems = page.getByTestId('import-problem');
    await page.getByTestId('import-problems').waitFor();
    expect(await page.getByTestId('import-problems').getByRole('heading').innerText()).toBe('2 problems in the file: nothing was imported');
    expect(await problems.allInnerTexts()).toEqual([
      'Line 3, Quantity: “two” is not a number: write it in digits, with a point for decimals, like 12.5.',
      'Line 5, Expiration date: “31/12/2027” is not a date written year-month-day, like 2027-03-31.',
    ]);
    expect(await page.getByRole('button', { name: /^Import/ }).count()).toBe(0);
    expect(await imported()).toEqual([]);
    await expectNoSeriousAxeViolations(page);

    await chooseFile(page, GOOD);
    await page.getByTestId('import-ready').waitFor();
    expect(await page.getByTestId('import-ready').innerText()).toContain(
      '4 rows will add 4 items with 4 instances to Migrated lab A, and 3 new locations.',
    );
    expect(await imported()).toEqual([]);
    // A double-click is one import.
    await page.getByRole('button', { name: 'Import 4 rows' }).dblclick();
    await page.getByTestId('import-done').waitFor();
    expect(await page.getByTestId('import-done').innerText()).toContain('4 rows added 4 items with 4 instances to Migrated lab A');
    const rows = await imported();
    expect(rows.map((r) => r.name).sort()).toEqual(NAMES);
    const instances = await h.deps.db
      .selectFrom('inventory_item_instances')
      .select(['lot_number', 'quantity'])
      .where(
        'item_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    expect(instances.map((i) => i.lot_number).sort()).toEqual(['GR3323', 'L1', 'L2', 'L3']);
    await expectNoSeriousAxeViolations(page);

    // The rows are in the lab's inventory.
    await page.getByRole('link', { name: "Open Migrated lab A's inventory" }).click();
    await page.getByRole('link', { name: 'Anti-GFP rabbit' }).waitFor();
    await page.getByRole('link', { name: 'Anti-Vimentin rabbit' }).waitFor();

    // Export from the lab's settings: a CSV file with them.
    await page.goto(`/app/labs/${labId}/settings`);
    const download = page.waitForEvent('download');
    await page.getByTestId('inventory-file').getByRole('link', { name: 'Export as CSV' }).click();
    const file = await readFile((await (await download).path())!, 'utf8');
    expect(file.split('\r\n')[0]).toMatch(/^item_id,instance_id,name,type,vendor,catalog_number/);
    expect(file).toMatch(/,Anti-GFP rabbit,Antibody,Abcam,ab290,.*,2,GR3323,2027-03-31,Cold room \/ Rack 1,/);
    expect(file).toMatch(/,Anti-Vimentin rabbit,Antibody,CST,5741,.*,1,L3,2027-12-31,Cold room \/ Rack 2,/);

    // The template opens in a spreadsheet with every column.
    await page.goto(importPath());
    const template = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download a template' }).click();
    expect(await readFile((await (await template).path())!, 'utf8')).toMatch(/^name,type,vendor,catalog_number,.*technical_details\r\n$/);
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('another import into the lab running is said in words, and "Try again" checks the file when it has finished', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', importPath());
    const release = takeImportSlot(h.app.deps.db, h.app.deps.config.importConcurrency, labId);
    try {
      await chooseFile(page, GOOD);
      const busy = page.getByTestId('import-busy');
      await busy.waitFor();
      expect(await busy.innerText()).toContain('Another import into Migrated lab A is running');
      expect(await busy.innerText()).toContain('Try again in about 10 seconds');
    } finally {
      release();
    }
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('import-ready').waitFor();
    await context.close();
    expect(h.consoleErrors.filter((m) => !/status of 409/.test(m))).toEqual([]);
  });

  it('at 390 px the problems by line and the Import button are in view, and nothing scrolls sideways', async () => {
    const { page, context } = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await h.signIn(page, 'member-A@example.org', importPath());
    await chooseFile(page, BAD, 'a file with a long name from the lab’s shared drive, second version.csv');
    await page.getByTestId('import-problems').waitFor();
    for (const problem of await page.getByTestId('import-problem').all()) await expectInView(page, problem);
    await expectNoSidewaysScroll(page);
    await chooseFile(page, GOOD);
    await page.getByTestId('import-ready').waitFor();
    await expectInView(page, page.getByRole('button', { name: 'Import 4 rows' }));
    await expectNoSidewaysScroll(page);
    await expectNoSeriousAxeViolations(page);
    await context.close();
  });

  it("another organization's lab is not found, and its export is refused", async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-B@example.org', importPath());
    await page.getByTestId('not-found').waitFor();
    expect(await page.content()).not.toContain('Migrated lab A');
    const res = await page.request.get(`/labs/${labId}/inventory/export`);
    expect(res.status()).toBe(404);
    await context.close();
  });
});
