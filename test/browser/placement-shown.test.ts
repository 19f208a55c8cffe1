// Journey (issue 26, docs/safety.md "Every way a container arrives", "Storage attributes of a type"): in the demo's
// chemistry lab (src/demo/chemistry.ts), a warn-mode import lists by line the rows whose containers went beside an
// incompatible one or over the cabinet's limit, in words and orange; a count that finds an oxidizer in the
// flammables cabinet is applied once (double-clicked) and says what it put where, linked to the cabinet's page; a
// type's storage is read by a member and set once by an admin; in block mode the import is refused by its rows and
// nothing is written. Each at 1280 and 390 px (PLACEMENT_SHOWN_SCREENSHOTS=dir keeps the pictures).

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoChemistry, seedChemistry } from '../../src/demo/chemistry.js';
import type { Actor } from '../../src/shared/actor.js';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
let chem: DemoChemistry;
beforeAll(async () => {
  h = await startBrowserHarness();
  const member: Actor = { tokenId: 'fixture', userId: h.a.member.id, organizationId: h.a.orgId, role: 'member' };
  chem = await seedChemistry(h.deps, { admin: h.a.admin.actor, member, organizationId: h.a.orgId });
});
afterAll(() => h?.close());

const SHOTS = process.env.PLACEMENT_SHOWN_SCREENSHOTS;
const ADMIN = 'admin-A@example.org';
const MEMBER = 'member-A@example.org';
const CABINET = 'Chemistry Building / Room 3.12 / Flammables cabinet';

const get = async (url: string) => (await h.call(h.a.admin.token, { method: 'GET', url })).json();
async function itemNamed(name: string) {
  const items = await get(`/inventory-items?lab_id=${chem.chemistry_lab_id}&per_page=100`);
  return items.find((i: { name: string }) => i.name === name);
}

async function chooseFile(page: Page, text: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: /^Choose (a CSV|another) file$/ }).click();
  await (await chooser).setFiles({ name: 'reagents.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
}

/** Counts the requests a page sends to a path (method and a regular expression). */
function requestsTo(page: Page, method: string, path: RegExp) {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (r.method() === method && path.test(new URL(r.url()).pathname)) seen.push(r.url());
  });
  return seen;
}

async function at390(page: Page, shot: string, ...targets: ReturnType<Page['getByTestId']>[]) {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const t of targets) {
    await t.scrollIntoViewIfNeeded();
    expect(await t.isVisible()).toBe(true);
  }
  await expectNoSidewaysScroll(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${shot}-390.png` });
}

// Line 2: an oxidizer into the cabinet of flammables; line 3: 3 L more flammable liquid into a cabinet at 17.5 L of 20 L.
const WARNED = [
  'name,hazard_statements,quantity,unit_size,location',
  `Sodium nitrate,H272 H319,1,500 g,${CABINET}`,
  `Ethyl acetate,H225 H319 H336,3,1 L,${CABINET}`,
  'Sodium chloride,,1,1 kg,Chemistry Building / Room 3.12 / Open shelf A',
].join('\r\n');

describe('journey: the app shows what the placement checks found', () => {
  it('a warn-mode import lists by line the rows that went beside an incompatible container or over a limit', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, ADMIN, `/app/labs/${chem.chemistry_lab_id}/import`);
    await chooseFile(page, WARNED);
    await page.getByTestId('import-ready').waitFor();
    await page.getByRole('button', { name: 'Import 3 rows' }).dblclick();
    await page.getByTestId('import-done').waitFor();
    const warnings = page.getByTestId('import-placement-warnings');
    await warnings.getByText(/^Imported, but 2 rows put their containers where the lab's safety settings warn$/).waitFor();
    const lines = warnings.getByTestId('import-placement-warning');
    await lines.filter({ hasText: /^Line 2: Sodium nitrate \(oxidizers\) beside Ethanol absolute \(flammables\): / }).waitFor();
    await lines
      .filter({ hasText: /^Line 3: Flammable liquids IB and IC in Flammables cabinet: / })
      .first()
      .waitFor();
    expect(await lines.filter({ hasText: /^Line 4/ }).count()).toBe(0);
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/segregation_conflict|limit_exceeded|placement_warnings/);
    expect(await itemNamed('Ethyl acetate')).toBeTruthy();
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/import-warnings-1280.png`, fullPage: true });
    await at390(page, 'import-warnings', warnings.getByTestId('import-placement-warning').first());
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('a count that finds an oxidizer in the flammables cabinet is applied once and says what it put where, linked', async () => {
    const permanganate = await itemNamed('Potassium permanganate');
    const started = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/stocktakes',
      payload: { location_id: chem.flammables_cabinet_id },
    });
    expect(started.statusCode, started.body).toBe(201);
    const id = started.json().id;
    const counted = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/stocktakes/${id}/counts/${permanganate.instances[0].id}`,
      payload: {},
    });
    expect(counted.statusCode, counted.body).toBe(200);
    const { page, context } = await h.newPage();
    const applies = requestsTo(page, 'POST', /\/stocktakes\/[^/]+\/apply$/);
    await h.signIn(page, ADMIN, `/app/stocktakes/${id}`);
    await page.getByRole('button', { name: 'Apply count…' }).click();
    await page.getByRole('button', { name: 'Apply count', exact: true }).dblclick();
    const findings = page.getByTestId('count-placement');
    await findings.getByText('The count was recorded: check where these containers are kept').waitFor();
    await findings.getByText(/^Potassium permanganate \(oxidizers\) beside Ethanol absolute \(flammables\): /).waitFor();
    const link = findings.getByRole('link', { name: 'Flammables cabinet' });
    expect(await link.getAttribute('href')).toBe(`/app/locations/${chem.flammables_cabinet_id}?lab=${chem.chemistry_lab_id}`);
    expect(applies).toHaveLength(1);
    expect((await itemNamed('Potassium permanganate')).instances[0].location.pathNames.join(' / ')).toBe(CABINET);
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/count-findings-1280.png`, fullPage: true });
    await at390(page, 'count-findings', link);
    await link.click();
    await page.waitForURL(`**/app/locations/${chem.flammables_cabinet_id}?lab=${chem.chemistry_lab_id}`);
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it("a type's storage: a member reads it, an admin sets it once (double-clicked)", async () => {
    const created = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/types',
      payload: { lab_id: chem.chemistry_lab_id, name: 'Mineral acid' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const typeId = created.json().id;
    const { page, context } = await h.newPage();
    const puts = requestsTo(page, 'PUT', /\/types\/[^/]+\/storage-attributes$/);
    await h.signIn(page, ADMIN, `/app/types?lab=${chem.chemistry_lab_id}`);
    const card = page.getByRole('region', { name: 'Type Mineral acid' });
    await card.getByRole('button', { name: 'Hazards of Mineral acid' }).click();
    await card.getByText('Stored as neither an acid nor a base; not an aqueous solution.').waitFor();
    await card.getByRole('button', { name: 'Edit the storage of Mineral acid' }).click();
    const form = card.getByRole('form', { name: 'Storage of Mineral acid' });
    await form.getByRole('radio', { name: 'A corrosive acid' }).check();
    await form.getByRole('checkbox', { name: /An aqueous solution/ }).check();
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/type-storage-form-1280.png`, fullPage: true });
    await form.getByRole('button', { name: 'Save storage' }).dblclick();
    await card.getByText('Stored as a corrosive acid; an aqueous solution.').waitFor();
    expect(await get(`/types/${typeId}/storage-attributes`)).toEqual({ corrosive: 'acid', aqueous: true });
    await page.waitForTimeout(300);
    expect(puts).toHaveLength(1);
    await context.close();

    // A member of the lab reads the same words, without the button.
    const other = await h.newPage();
    await h.signIn(other.page, MEMBER, `/app/types?lab=${chem.chemistry_lab_id}`);
    const theirs = other.page.getByRole('region', { name: 'Type Mineral acid' });
    await theirs.getByRole('button', { name: 'Hazards of Mineral acid' }).click();
    const words = theirs.getByTestId('storage-attributes');
    await words.getByText('Stored as a corrosive acid; an aqueous solution.').waitFor();
    expect(await theirs.getByRole('button', { name: 'Edit the storage of Mineral acid' }).count()).toBe(0);
    await expectNoSeriousAxeViolations(other.page);
    if (SHOTS) await other.page.screenshot({ path: `${SHOTS}/type-storage-1280.png`, fullPage: true });
    await at390(other.page, 'type-storage', words);
    await other.context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('in block mode the import is refused by its rows, in words, and nothing is written', async () => {
    const set = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/labs/${chem.chemistry_lab_id}/safety-settings`,
      payload: { segregation: 'block', limits: 'block' },
    });
    expect(set.statusCode, set.body).toBe(200);
    const { page, context } = await h.newPage();
    await h.signIn(page, ADMIN, `/app/labs/${chem.chemistry_lab_id}/import`);
    await chooseFile(
      page,
      ['name,hazard_statements,quantity,unit_size,location', `Ammonium nitrate,H272 H319,1,500 g,${CABINET}`].join('\r\n'),
    );
    await page.getByRole('button', { name: 'Import 1 row' }).click();
    const refused = page.getByTestId('import-problems');
    await refused.getByRole('heading', { name: "1 row refused by the lab's safety settings: nothing was imported" }).waitFor();
    await refused
      .getByTestId('import-problem')
      .filter({ hasText: /^Line 2, Location: Ammonium nitrate \(oxidizers\) beside Ethanol absolute \(flammables\): / })
      .waitFor();
    await refused.getByText(/managers and organization admins can change this/).waitFor();
    // One sentence per substance it would go beside (ethanol's four bottles told once): ethanol, acetone, n-hexane and
    // the ethyl acetate imported above.
    expect(await refused.getByTestId('import-problem').count()).toBe(4);
    expect(await itemNamed('Ammonium nitrate')).toBeUndefined();
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/segregation_conflict|limit_exceeded|409/);
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/import-refused-1280.png`, fullPage: true });
    await at390(page, 'import-refused', refused.getByTestId('import-problem').first());
    await context.close();
    // The refusal is the one failed load (Chromium logs every 4xx).
    expect(h.consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 409 (Conflict)']);
    h.consoleErrors.length = 0;
  });
});
