// Journey (issue 26; docs/hazard-reports.md): a member opens the Safety page, reads the lab's hazard inventory per
// location, per building and per control area (the cabinet's limit with what it holds), downloads it as CSV and as
// PDF, and sees each item's amount on its page and in the list. At 390 px the report's places, classes and
// containers are on screen without scrolling sideways.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText, type ReportWorld, reportWorld } from '../api/safety-reports/_report.js';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
let w: ReportWorld;
beforeAll(async () => {
  h = await startBrowserHarness();
  w = await reportWorld(h);
});
afterAll(() => h?.close());

const SHOTS = process.env.SAFETY_SCREENSHOTS;

describe('journey: the safety office reads the hazard inventory', () => {
  it('per location, building and control area, with both downloads; amounts on the item and in the list', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/safety?lab=${h.a.migratedLab.id}`);
    await page.getByRole('heading', { name: 'Safety', level: 2 }).waitFor();
    const places = page.getByTestId('report-place');
    await places.first().waitFor();
    await expect.poll(() => places.count()).toBe(3);
    const room = places.filter({ has: page.getByRole('heading', { name: 'Room 101', exact: true }) });
    await room.getByText('Flammable liquid, category 2').waitFor();
    await room.getByText('1 L and 1 container of unknown size in 2 containers').waitFor();
    await room.getByText('3, no unit size').or(room.getByText('3 × 5 mg/mL = amount unknown')).first().waitFor();
    // Words, not internals: no class ids or field names on the page.
    const text = await page.locator('main').innerText();
    expect(text).not.toMatch(/flammable-liquid|class_id|unit_size/);
    await expectNoSeriousAxeViolations(page);

    await page.getByText('Buildings', { exact: true }).click();
    await page.getByRole('heading', { name: 'Building B', exact: true }).waitFor();
    await page.getByText('6 L and 1 container of unknown size in 4 containers').waitFor();
    // A building's own page lists what is kept apart on its own floor, not its rooms': the link says the page, not that.
    await page.getByRole('link', { name: "The building's page" }).first().waitFor();
    expect(await page.getByRole('link', { name: 'What is kept apart here' }).count()).toBe(0);

    await page.getByText('Control areas', { exact: true }).click();
    const area = page.getByTestId('report-place');
    await area.getByText('Control area', { exact: true }).waitFor();
    await area.getByText('Flammable liquids IB and IC (liquid): 6 L of 10 L; 1 container of unknown amount not counted').waitFor();
    expect(page.url()).toContain('by=control-area');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/safety-report-1280.png`, fullPage: true });

    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download as CSV' }).click()]);
    expect(csv.suggestedFilename()).toMatch(/^hazard-report-.*-control-area\.csv$/);
    const rows: Record<string, string>[] = parse(readFileSync((await csv.path())!, 'utf8'), { columns: true });
    expect(rows).toContainEqual(expect.objectContaining({ row: 'limit', group: 'Room 101', limit: '10', amount_text: '6 L of 10 L' }));
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download as PDF' }).click()]);
    expect(pdfText(new Uint8Array(readFileSync((await pdf.path())!)))).toContain('Room 101 (control area)');
    // Each place opens its own page (web/src/pages/Location.tsx): the control area's meter, with the same figures.
    await area.getByRole('link', { name: 'Meter and limits' }).click();
    await page.getByRole('heading', { name: 'Control area' }).waitFor();
    await page.getByText('Flammable liquids IB and IC: 6 L of 10 L', { exact: false }).first().waitFor();

    // The amount of one item on its page, and in the list.
    await page.goto(`/app/inventory/items/${w.ethanol}`);
    await page.getByTestId('item-name').waitFor();
    await page.getByText('5 L', { exact: true }).waitFor();
    await page.goto(`/app/inventory?lab=${h.a.migratedLab.id}&q=Ethanol%20absolute`);
    const table = page.getByTestId('items-table');
    await table.getByRole('columnheader', { name: 'Amount' }).waitFor();
    await table.getByRole('row').filter({ hasText: 'Ethanol absolute' }).getByText('5 L', { exact: true }).waitFor();
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('at 390 px the places, classes and containers are on screen, nothing scrolls sideways', async () => {
    const context = await h.browser.newContext({ baseURL: h.origin, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/safety?lab=${h.a.migratedLab.id}&by=building`);
    const card = page.getByTestId('report-class').first();
    await card.waitFor();
    const box = (await card.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.getByRole('link', { name: 'Download as PDF' }).waitFor();
    await expectNoSidewaysScroll(page);
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/safety-report-390.png`, fullPage: true });
    await context.close();
  });
});
