// Journey (issue 25, "Documents with the stock"): a lab manager attaches the safety data sheet to a type; a member
// attaches a manual to an item (chosen twice in a hurry: one upload), opens a bottle's page from the item, finds the
// safety data sheet at the top and downloads it, and attaches the lot's certificate of analysis there. At 390 px
// the bottle's page shows the safety data sheet on screen.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`, 'latin1');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const docsOf = async (path: string) => (await h.call(h.a.admin.token, { method: 'GET', url: path })).json() as Promise<any[]>;

describe('journey: documents with the stock', () => {
  it("a manager attaches a type's SDS; a member opens it from the bottle's page and attaches the CoA", async () => {
    const lab = h.a.migratedLab;
    const sds = pdf('Safety data sheet, antibody buffer');

    // The manager (an org admin acts as one) attaches the SDS on the types page.
    const admin = await h.newPage();
    await h.signIn(admin.page, 'admin-A@example.org', `/app/types?lab=${lab.id}`);
    const typeCard = admin.page.getByTestId('type-card').first();
    await typeCard.getByRole('button', { name: /^Documents of / }).click();
    const chooser = admin.page.waitForEvent('filechooser');
    await typeCard.getByRole('button', { name: 'Attach a file' }).click();
    await (await chooser).setFiles({ name: 'SDS antibody.pdf', mimeType: 'application/pdf', buffer: sds });
    await typeCard.getByRole('link', { name: 'SDS antibody.pdf' }).waitFor();
    await admin.context.close();

    // The member attaches a manual to the item: the file chosen twice in a hurry uploads once.
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/inventory/items/${lab.itemId}`);
    const documents = page.getByRole('region', { name: 'Documents', exact: true });
    await documents.getByText('No documents yet.').waitFor();
    const input = documents.locator('input[type=file]');
    const manual = { name: 'Manual.pdf', mimeType: 'application/pdf', buffer: pdf('manual') };
    await Promise.all([input.setInputFiles(manual), input.setInputFiles({ ...manual, buffer: pdf('manual') })]);
    await documents.getByRole('link', { name: 'Manual.pdf' }).waitFor();
    await documents.getByText(/added by .* on /).waitFor();
    expect((await docsOf(`/inventory-items/${lab.itemId}/attachments`)).map((d) => d.file_name)).toEqual(['Manual.pdf']);
    // The item's page shows the type's safety data sheet too.
    await page
      .getByRole('region', { name: 'Safety data sheet' })
      .getByRole('link', { name: /SDS antibody\.pdf/ })
      .waitFor();
    if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/item-1280.png`, fullPage: true });

    // From the item to the bottle's page; the SDS is at the top and downloads as the same file.
    await page.getByRole('link', { name: 'Documents and safety data sheet' }).first().click();
    await page.getByTestId('instance-title').waitFor();
    const sheet = page
      .getByRole('region', { name: 'Safety data sheet' })
      .getByRole('link', { name: 'Safety data sheet: SDS antibody.pdf' });
    const downloading = page.waitForEvent('download');
    await sheet.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('SDS antibody.pdf');
    expect(sha(readFileSync((await download.path())!))).toBe(sha(sds));

    // The lot's certificate of analysis, on the container; a refused file is said in words.
    const container = page.getByRole('region', { name: "This container's documents" });
    const coa = container.locator('input[type=file]');
    await coa.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a pdf') });
    await container.getByText('Only PDF files and pictures (PNG, JPEG, GIF or WebP) can be attached.', { exact: false }).waitFor();
    await coa.setInputFiles({ name: 'CoA lot A1.pdf', mimeType: 'application/pdf', buffer: pdf('CoA A1') });
    await container.getByRole('link', { name: 'CoA lot A1.pdf' }).waitFor();
    const instanceId = page.url().split('/').pop()!;
    expect(instanceId).toBe(lab.instanceIds[0]);
    expect((await docsOf(`/inventory-items/${lab.itemId}/instances/${instanceId}/attachments`)).map((d) => d.file_name)).toEqual([
      'CoA lot A1.pdf',
    ]);
    await expectNoSeriousAxeViolations(page);
    if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/container-1280.png`, fullPage: true });

    // At a phone's width the safety data sheet is on screen without scrolling sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await sheet.waitFor();
    const box = (await sheet.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    await expectNoSidewaysScroll(page);
    if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/container-390.png`, fullPage: true });

    // Where the bottle is links to that place's page (its control area and what is kept apart there).
    const stored = (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${lab.itemId}` })).json();
    const at: string[] = stored.instances.find((i: { id: string }) => i.id === instanceId).location.pathNames;
    await page.getByRole('link', { name: at.join(' / '), exact: true }).click();
    await page
      .getByRole('heading', { name: at.at(-1)! })
      .first()
      .waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/locations/${lab.locationIds[2]}`);
    await context.close();
    expect(h.consoleErrors.filter((e) => !/status of 415/.test(e))).toEqual([]);
  });

  it("a member reads a type's documents but gets no buttons to change them", async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/types?lab=${h.a.migratedLab.id}`);
    const typeCard = page.getByTestId('type-card').first();
    await typeCard.getByRole('button', { name: /^Documents of / }).click();
    await typeCard.getByRole('link', { name: 'SDS antibody.pdf' }).waitFor();
    expect(await typeCard.getByRole('button', { name: /^(Attach a file|Replace|Delete)$/ }).count()).toBe(0);
    await context.close();
  });
});
