// Journeys with a camera (issue 25, docs/scanning.md). Chromium's fake camera plays a picture we make:
// - a label printed as a PDF (POST /labels, the 2"×1" roll), its page rendered to an image: the scan page reads the
//   QR code through the camera (zxing-wasm: headless Chromium on Linux has no BarcodeDetector) and lands on the
//   container;
// - the same label held up on a stocktake's count page: the container is counted;
// - a manufacturer's GS1 DataMatrix (drawn by bwip-js) held up while adding a container: lot and expiry are filled
//   from it, and the container is saved with them and with its product and serial numbers, which its card shows;
//   the same barcode given to the scan page later opens that container.
// Each needs a Chromium of its own, started with its camera file.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import bwipjs from 'bwip-js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { launchWithCamera, pdfToY4m, pngToY4m } from '../helpers/camera.js';

let h: BrowserHarness;
let dir: string;
const browsers: Browser[] = [];
beforeAll(async () => {
  h = await startBrowserHarness();
  dir = mkdtempSync(path.join(tmpdir(), 'labstock-camera-'));
});
afterAll(async () => {
  await Promise.all(browsers.map((b) => b.close()));
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A page in a Chromium whose camera shows `y4m`, signed in as A's member; its console errors are collected. */
async function pageWithCamera(y4m: string, next: string): Promise<{ page: Page; errors: string[] }> {
  const browser = await launchWithCamera(y4m);
  browsers.push(browser);
  const context = await browser.newContext({ baseURL: h.origin, permissions: ['camera'] });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 401/.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await h.signIn(page, 'member-A@example.org', next);
  return { page, errors };
}

describe('journey: scan with the camera', () => {
  it('a printed label held up to the camera opens its container', async () => {
    const [bottle] = h.a.migratedLab.instanceIds;
    const printed = await h.call(h.a.member.token, {
      method: 'POST',
      url: '/labels',
      payload: { format: 'pdf', layout: 'roll-2x1', instance_ids: [bottle] },
    });
    expect(printed.statusCode, printed.body).toBe(200);
    expect(printed.headers['content-type']).toMatch(/^application\/pdf/);
    const camera = pdfToY4m(printed.rawPayload, path.join(dir, 'label.y4m'));

    const { page, errors } = await pageWithCamera(camera, '/app/scan');
    await page.getByRole('button', { name: 'Scan with the camera' }).click();
    const card = page.getByTestId('scanned-container');
    await card.waitFor({ timeout: 20_000 });
    expect(await card.innerText()).toContain('Anti-GFP A');
    expect(await card.innerText()).toContain('A1');
    expect(errors).toEqual([]);
  });

  it("a container's label held up to the camera on a count page counts it there", async () => {
    const [bottle] = h.a.migratedLab.instanceIds;
    const { location_id } = await h.deps.db
      .selectFrom('inventory_item_instances')
      .select('location_id')
      .where('id', '=', bottle!)
      .executeTakeFirstOrThrow();
    const count = await h.call(h.a.member.token, { method: 'POST', url: '/stocktakes', payload: { location_id } });
    expect(count.statusCode, count.body).toBe(201);
    const id = count.json().id as string;
    const printed = await h.call(h.a.member.token, {
      method: 'POST',
      url: '/labels',
      payload: { format: 'pdf', layout: 'roll-2x1', instance_ids: [bottle] },
    });
    const camera = pdfToY4m(printed.rawPayload, path.join(dir, 'count.y4m'));

    const { page, errors } = await pageWithCamera(camera, `/app/stocktakes/${id}`);
    await page.getByRole('button', { name: 'Use the camera' }).click();
    await page
      .getByTestId('scan-result')
      .getByText(/^Counted: /)
      .waitFor({ timeout: 20_000 });
    const after = await h.call(h.a.member.token, { method: 'GET', url: `/stocktakes/${id}` });
    const line = after.json().lines.find((l: { instance_id: string }) => l.instance_id === bottle);
    expect(line).toMatchObject({ counted: true });
    // The label stays in view: each reading counts once while it does, and a second count changes nothing anyway.
    expect(after.json().summary.counted).toBe(1);
    expect(errors).toEqual([]);
  });

  it("a vendor's GS1 DataMatrix fills lot and expiry when adding a container, which keeps its serial; scanned again, it opens", async () => {
    const png = await bwipjs.toBuffer({
      bcid: 'gs1datamatrix',
      text: '(01)09506000134352(17)271231(10)SLCD1234(21)S0042',
      scale: 4,
      paddingwidth: 4,
      paddingheight: 4,
    });
    const camera = pngToY4m(png, path.join(dir, 'vendor.y4m'));
    const { page, errors } = await pageWithCamera(camera, `/app/inventory/items/${h.a.migratedLab.itemId}`);
    await page.getByRole('button', { name: 'Add an instance' }).click();
    const form = page.getByRole('form', { name: 'Add an instance' });
    await form.getByRole('button', { name: 'Use the camera instead' }).click();
    await form.getByTestId('vendor-barcode-read').waitFor({ timeout: 20_000 });
    expect(await form.getByTestId('vendor-barcode-read').innerText()).toBe(
      'Product number 09506000134352 · lot SLCD1234 · expires 2027-12-31 · serial number S0042',
    );
    expect(await form.getByRole('textbox', { name: 'Lot number' }).inputValue()).toBe('SLCD1234');
    expect(await form.getByLabel('Expires').inputValue()).toBe('2027-12-31');
    await form.getByRole('textbox', { name: 'Quantity' }).fill('1');
    await form.getByRole('button', { name: 'Add instance' }).click();
    await form.waitFor({ state: 'detached' });
    const saved = await h.deps.db
      .selectFrom('inventory_item_instances')
      .select(['lot_number', 'expiration_date'])
      .where('item_id', '=', h.a.migratedLab.itemId)
      .where('lot_number', '=', 'SLCD1234')
      .execute();
    expect(saved).toEqual([{ lot_number: 'SLCD1234', expiration_date: '2027-12-31' }]);
    // Its product and serial numbers were stored in the same submission, and its card shows them.
    const stored = await h.deps.db
      .selectFrom('instance_identifiers')
      .innerJoin('inventory_item_instances', 'inventory_item_instances.id', 'instance_identifiers.instance_id')
      .select(['gtin', 'serial_number'])
      .where('inventory_item_instances.lot_number', '=', 'SLCD1234')
      .execute();
    expect(stored).toEqual([{ gtin: '09506000134352', serial_number: 'S0042' }]);
    await page.getByTestId('instance-identifiers').filter({ hasText: 'Serial number S0042' }).waitFor();
    expect(await page.getByTestId('instance-identifiers').filter({ hasText: 'S0042' }).innerText()).toBe(
      'Product number 09506000134352 · Serial number S0042',
    );
    // The same vendor barcode given to the scan page finds the container by its product and serial numbers.
    await page.goto('/app/scan');
    await page.getByRole('textbox', { name: 'Code' }).fill('(01)09506000134352(17)271231(10)SLCD1234(21)S0042');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const scanned = page.getByTestId('scanned-container');
    await scanned.waitFor();
    expect(await scanned.getByTestId('scanned-identifiers').innerText()).toBe('Product number 09506000134352 · Serial number S0042');
    expect(errors).toEqual([]);
  });
});
