// Journey (issue 26, controlled substances; docs/controlled-substances.md): a member records a use of a controlled
// substance on its page; the ledger says it in a sentence, waiting for a witness, and the member cannot witness it
// themself; the admin, in a browser of their own, finds it under "Waiting for a witness" and witnesses it with a
// double-click (witnessed once); the member reconciles against a count. The admin downloads the registrant's PDF for
// a period and the lab's reconciliation (the Controlled page), then unmarks the item with a reason (a double-click
// unmarks once). At 390 px the pages show what the person came for.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeControlled, pdfText } from '../api/controlled/_controlled.js';
import { count, started } from '../api/stocktake/_stocktake.js';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const SHOTS = process.env.CONTROLLED_SCREENSHOTS;

const witnessRows = async (itemId: string) =>
  h.deps.db
    .selectFrom('controlled_witnesses as w')
    .innerJoin('controlled_ledger as e', 'e.id', 'w.entry_id')
    .select(['w.entry_id', 'w.witnessed_by'])
    .where('e.item_id', '=', itemId)
    .execute();

/** The file a download link gives, fetched in the page's own session. */
async function download(page: Page, href: string | null): Promise<{ type: string; body: Buffer }> {
  const res = await page.request.get(new URL(href!, page.url()).toString());
  expect(res.status()).toBe(200);
  return { type: res.headers()['content-type'] ?? '', body: await res.body() };
}

const today = () => new Date().toISOString().slice(0, 10);

describe('journey: a use of a controlled substance, witnessed by another person', () => {
  it('the member records a use; the admin witnesses it once in their own session; the member reconciles', async () => {
    const c = await makeControlled(h);
    const name = (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${c.itemId}` })).json().name;
    // The opening entry is witnessed already, so the one waiting is the use.
    const [opening] = (await h.call(h.a.admin.token, { method: 'GET', url: `/controlled-items/${c.itemId}/ledger` })).json();
    expect((await h.call(h.a.member.token, { method: 'POST', url: `/controlled-entries/${opening.id}/witness` })).statusCode).toBe(200);

    const ana = await h.newPage();
    await h.signIn(ana.page, 'member-A@example.org', `/app/inventory/items/${c.itemId}`);
    const section = ana.page.getByTestId('controlled-section');
    await section.getByText('DEA Schedule II', { exact: true }).waitFor();
    await section.getByTestId('controlled-balance').getByText('7 mL').waitFor();
    await ana.page.getByLabel('Change by').fill('-2');
    await ana.page.getByLabel('Note').fill('for the rat study');
    await ana.page.getByRole('button', { name: 'Adjust', exact: true }).click();
    const use = section.getByTestId('ledger-entry').filter({ hasText: 'used 2 mL' });
    await use.getByText(/^Max MemberA used 2 mL on .+, waiting for a witness\.$/).waitFor();
    await use.getByText('“for the rat study”').waitFor();
    await use.getByText('You made this entry: another person of the lab witnesses it.').waitFor();
    expect(await use.getByRole('button', { name: 'I witnessed this' }).count()).toBe(0);
    await section.getByTestId('controlled-balance').getByText('5 mL').waitFor();
    await expectNoSeriousAxeViolations(ana.page);
    if (SHOTS) await ana.page.screenshot({ path: `${SHOTS}/controlled-item-1280.png`, fullPage: true });

    // Ben (the admin) in a browser of his own: the lab's entries waiting for a witness.
    const ben = await h.newPage();
    await h.signIn(ben.page, 'admin-A@example.org', '/app/controlled');
    await ben.page.getByRole('heading', { name: 'Waiting for a witness' }).waitFor();
    const waiting = ben.page.getByRole('list', { name: 'Waiting for a witness' }).getByTestId('ledger-entry').filter({ hasText: name });
    await waiting.getByText(/Max MemberA used 2 mL on .+, waiting for a witness\./).waitFor();
    await expectNoSeriousAxeViolations(ben.page);
    if (SHOTS) await ben.page.screenshot({ path: `${SHOTS}/controlled-waiting-1280.png`, fullPage: true });
    await waiting.getByRole('button', { name: 'I witnessed this' }).dblclick();
    await expect.poll(() => waiting.count()).toBe(0);
    const rows = await witnessRows(c.itemId);
    expect(rows.filter((r) => r.witnessed_by === h.a.admin.id)).toHaveLength(1);

    // Back on Ana's page: the ledger says who witnessed it; she reconciles against a count of 4.
    await ana.page.reload();
    await section.getByText(/^Max MemberA used 2 mL on .+, witnessed by Ada AdminA\.$/).waitFor();
    await section.getByRole('button', { name: 'Reconcile against a count' }).click();
    await section.getByLabel('Counted now').fill('4');
    await section.getByRole('button', { name: 'Compare' }).click();
    await section.getByTestId('reconciliation-difference').getByText('1 mL missing').waitFor();
    await section.getByText('Every entry is witnessed.').waitFor();
    const csv = section.getByRole('link', { name: 'Download the reconciliation (CSV)' });
    expect(await csv.getAttribute('href')).toBe(`/controlled-items/${c.itemId}/reconciliation.csv?counted=4`);
    if (SHOTS) await ana.page.screenshot({ path: `${SHOTS}/controlled-reconcile-1280.png`, fullPage: true });
    await ana.context.close();
    await ben.context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('at 390 px: the balance, the ledger and the witness button are on screen, nothing scrolls sideways', async () => {
    const c = await makeControlled(h);
    // One entry by each: each person finds one made by the other, with its witness button.
    const use = await h.call(h.a.member.token, {
      method: 'POST',
      url: `/inventory-items/${c.itemId}/adjustments`,
      payload: { delta: '-1', note: 'assay', instance_id: c.instanceIds[0] },
    });
    expect(use.statusCode, use.body).toBe(200);
    for (const [email, path, made] of [
      ['member-A@example.org', `/app/inventory/items/${c.itemId}`, 'opened the ledger with 7 mL'],
      ['admin-A@example.org', '/app/controlled', 'used 1 mL'],
    ] as const) {
      const { page, context } = await h.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      await h.signIn(page, email, path);
      const entry = page.getByTestId('ledger-entry').filter({ hasText: made }).first();
      await entry.waitFor();
      const targets = [entry, entry.getByRole('button', { name: 'I witnessed this' })];
      if (path.includes('items')) targets.push(page.getByTestId('controlled-balance'));
      for (const target of targets) {
        await target.scrollIntoViewIfNeeded();
        expect(await target.isVisible()).toBe(true);
      }
      await expectNoSidewaysScroll(page);
      await expectNoSeriousAxeViolations(page);
      if (SHOTS)
        await page.screenshot({ path: `${SHOTS}/controlled-${path.includes('items') ? 'item' : 'waiting'}-390.png`, fullPage: true });
      await context.close();
    }
    expect(h.consoleErrors).toEqual([]);
  });

  it("the admin downloads the registrant's PDF and the lab's reconciliation, then unmarks the item with a reason, once", async () => {
    const c = await makeControlled(h);
    const name = (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${c.itemId}` })).json().name;
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', `/app/inventory/items/${c.itemId}`);
    const section = page.getByTestId('controlled-section');
    await section.getByRole('button', { name: 'Reconcile against a count' }).click();
    await section.getByLabel('Counted now').fill('6.5');
    await section.getByRole('button', { name: 'Compare' }).click();
    await section.getByTestId('reconciliation-difference').getByText('0.5 mL missing').waitFor();
    await section.getByLabel('Report from').fill(today());
    const link = section.getByRole('link', { name: 'Report with every entry (PDF)' });
    const href = await link.getAttribute('href');
    expect(href).toBe(`/controlled-items/${c.itemId}/reconciliation.pdf?counted=6.5&from=${today()}`);
    const file = await download(page, href);
    expect(file.type).toBe('application/pdf');
    const text = pdfText(file.body);
    expect(text).toContain(`Controlled-substance reconciliation: ${name}`);
    expect(text).toContain('Counted by hand: 6.5 · difference (counted − ledger balance): -0.5');
    expect(text).toContain('Registrant (name, signature)');
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/controlled-reconcile-pdf-1280.png`, fullPage: true });

    // The Controlled page: every controlled item of the lab with its balance, last count and difference; CSV and PDF.
    await page.goto(new URL('/app/controlled', page.url()).toString());
    const lab = page.getByTestId('lab-reconciliation');
    const row = lab.getByRole('row').filter({ hasText: name });
    await row.getByText('7 mL').waitFor();
    await row.getByText('Never counted').waitFor();
    const labPdf = await download(page, await lab.getByRole('link', { name: 'Reconciliation of the lab (PDF)' }).getAttribute('href'));
    expect(labPdf.type).toBe('application/pdf');
    expect(pdfText(labPdf.body)).toContain(name);
    const labCsv = await download(page, await lab.getByRole('link', { name: 'Reconciliation of the lab (CSV)' }).getAttribute('href'));
    expect(labCsv.type).toMatch(/^text\/csv/);
    expect(labCsv.body.toString('utf8')).toContain(c.itemId);
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/controlled-lab-1280.png`, fullPage: true });

    // Unmarking: a reason is asked for; a double-click unmarks once, and the ledger stays with its closing entry.
    await page.goto(new URL(`/app/inventory/items/${c.itemId}`, page.url()).toString());
    await section.getByRole('button', { name: 'No longer controlled…' }).click();
    const unmark = section.getByRole('button', { name: 'No longer controlled', exact: true });
    await unmark.click();
    await section.getByText('Say why: the ledger records it').waitFor();
    await section.getByLabel('Why is it no longer controlled?').fill('Rescheduled: no longer controlled in this state');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/controlled-unmark-1280.png`, fullPage: true });
    await unmark.dblclick();
    await section.getByText('No longer a controlled substance. Its ledger stays, for the records.').waitFor();
    // Its ledger stays on the page, the closing entry on top, and the registrant's report still prints.
    await section
      .getByRole('list', { name: 'Ledger' })
      .getByText(/Rescheduled: no longer controlled in this state/)
      .first()
      .waitFor();
    await section.getByRole('button', { name: 'Reconcile against a count' }).click();
    const report = section.getByRole('link', { name: 'Report with every entry (PDF)' });
    const after = await download(page, await report.getAttribute('href'));
    expect(after.type).toBe('application/pdf');
    expect(pdfText(after.body)).toContain('No longer controlled (was DEA Schedule II)');
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/controlled-unmarked-1280.png`, fullPage: true });
    // On a phone the words and the report's link fit the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await report.scrollIntoViewIfNeeded();
    const box = (await report.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await expectNoSidewaysScroll(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/controlled-unmarked-390.png` });
    const closing = await h.deps.db
      .selectFrom('controlled_ledger')
      .selectAll()
      .where('item_id', '=', c.itemId)
      .where('kind', '=', 'closing')
      .execute();
    expect(closing).toHaveLength(1);
    expect(closing[0]!.note).toBe('No longer controlled (was DEA Schedule II): Rescheduled: no longer controlled in this state');
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it("at 390 px: the reconciliation's PDF link, the unmark button and the lab's reconciliation are on screen", async () => {
    const c = await makeControlled(h);
    const name = (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${c.itemId}` })).json().name;
    // A count of its safe found 4 of the 5 mL there (the bench's 2 mL not counted): 3 mL less than the ledger's 7.
    const session = await started(h, h.a.admin.token, c.places[0]);
    expect((await count(h, h.a.member.token, session.id, c.instanceIds[0], { quantity: '4' })).statusCode).toBe(200);
    const { page, context } = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await h.signIn(page, 'admin-A@example.org', `/app/inventory/items/${c.itemId}`);
    const section = page.getByTestId('controlled-section');
    await section.getByRole('button', { name: 'Reconcile against a count' }).click();
    const link = section.getByRole('link', { name: 'Report with every entry (PDF)' });
    await link.waitFor();
    for (const target of [link, section.getByRole('button', { name: 'No longer controlled…' })]) {
      await target.scrollIntoViewIfNeeded();
      expect(await target.isVisible()).toBe(true);
    }
    await expectNoSidewaysScroll(page);
    if (SHOTS) {
      await link.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/controlled-reconcile-pdf-390.png` });
    }
    await page.goto(new URL('/app/controlled', page.url()).toString());
    const lab = page.getByTestId('lab-reconciliation');
    const row = lab.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    for (const target of [
      row.getByText('3 mL missing'),
      row.getByText(/^4 mL on /),
      lab.getByRole('link', { name: 'Reconciliation of the lab (PDF)' }),
    ]) {
      await target.scrollIntoViewIfNeeded();
      expect(await target.isVisible()).toBe(true);
    }
    await expectNoSidewaysScroll(page);
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/controlled-lab-390.png`, fullPage: true });
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });
});
