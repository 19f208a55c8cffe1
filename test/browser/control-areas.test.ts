// Journey (issue 26; docs/safety.md, "In the app"): an org admin opens a location from the tree, marks it a control
// area, reads its meter in words (with the container it could not count), sets a limit by hand and sees the bar turn
// orange, reads the location's segregation conflicts (an oxidizer beside a solvent; then an acid, once the item says
// so), and sets the lab to refuse both: each save double-clicked sends one change. A member reads the same page
// without the buttons; at 390 px nothing scrolls sideways.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setHazardsIn } from '../../src/hazards/repository.js';
import { createItem } from '../../src/inventory/items.js';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
let labId: string;
let cabinetId: string;
let acidId: string;
let topShelfId: string;
const SHOTS = process.env.SAFETY_SCREENSHOTS;

beforeAll(async () => {
  h = await startBrowserHarness();
  const lab = h.a.migratedLab;
  labId = lab.id;
  const admin = h.a.admin;
  const created = await h.call(admin.token, {
    method: 'POST',
    url: '/locations',
    payload: { lab_id: lab.id, parent_id: lab.locationIds[0], name: 'Solvent cabinet' },
  });
  expect(created.statusCode, created.body).toBe(201);
  cabinetId = created.json().id;
  const shelf = await h.call(admin.token, {
    method: 'POST',
    url: '/locations',
    payload: { lab_id: lab.id, parent_id: cabinetId, name: 'Top shelf' },
  });
  topShelfId = shelf.json().id;
  const item = async (name: string, unitSize: string, quantity: string, codes: string[]) => {
    const it = await createItem(h.deps, admin.actor, { labId, name, typeId: lab.typeId, unitSize }, [{ quantity, locationId: cabinetId }]);
    await setHazardsIn(h.deps.db, { kind: 'item', id: it.id }, { userId: admin.id, now: new Date().toISOString(), labId, codes });
    return it.id;
  };
  await item('Acetone', '1 L', '4', ['H225', 'H319', 'H336']);
  await item('Solvent blend', '3 bottles', '1', ['H225']);
  await item('Hydrogen peroxide 30 %', '500 mL', '1', ['H271', 'H302', 'H318']);
  acidId = await item('Sulfuric acid 95 %', '1 L', '1', ['H290', 'H314']);
  // Eleven kits counted in boxes on the shelf inside the cabinet: with the blend, twelve items the meter cannot count.
  for (const letter of 'ABCDEFGHIJK') {
    const it = await createItem(h.deps, admin.actor, { labId, name: `Resin kit ${letter}`, typeId: lab.typeId, unitSize: '1 box' }, [
      { quantity: '1', locationId: topShelfId },
    ]);
    await setHazardsIn(h.deps.db, { kind: 'item', id: it.id }, { userId: admin.id, now: new Date().toISOString(), labId, codes: ['H225'] });
  }
});
afterAll(() => h?.close());

/** Counts the requests of `method` to a path matching `path` that the page sends from now on. */
function countSent(page: Page, method: string, path: RegExp): () => number {
  let n = 0;
  page.on('request', (r) => {
    if (r.method() === method && path.test(new URL(r.url()).pathname)) n += 1;
  });
  return () => n;
}

const api = async (url: string) => (await h.call(h.a.admin.token, { method: 'GET', url })).json();

describe('journey: control areas, their meter and what is kept apart', () => {
  it('an org admin marks a control area, sets a limit, reads the conflicts and makes the lab refuse', async () => {
    const { page, context } = await h.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await h.signIn(page, 'admin-A@example.org', `/app/locations?lab=${labId}`);
    await page.getByRole('button', { name: 'Change Room 101 / Solvent cabinet', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Control area and what is kept apart' }).click();
    await expect.poll(() => page.getByTestId('location-title').textContent()).toBe('Room 101 / Solvent cabinet');
    await page.getByText('Solvent cabinet is not a control area.', { exact: false }).waitFor();

    // Mark it: the defaults apply, the meter reads in words.
    await page.getByRole('button', { name: 'Mark as a control area' }).click();
    const form = page.getByRole('form', { name: 'Control area' });
    await form.getByText('No limit set by hand: all follow the defaults.').waitFor();
    await form.getByRole('button', { name: 'Mark as a control area' }).click();
    const line = page.getByTestId('meter-line').filter({ hasText: 'Flammable liquids IB and IC' });
    await line.getByText('Flammable liquids IB and IC: 4 L of 454.249 L').waitFor();
    await page.getByText('Oxidizers class 3, liquids: 0.5 L of 4.536 L').waitFor();
    expect(await line.getAttribute('data-level')).toBe('fine');
    const unknown = line.getByTestId('meter-unknown');
    await unknown.getByRole('link', { name: 'Resin kit A' }).waitFor();
    expect(await unknown.textContent()).toContain('Not counted, because their amount is not known');
    // Five of the twelve items named, then the rest on asking: asked twice by a double-click, fetched once.
    expect(await unknown.textContent()).toContain(
      'Resin kit D (1 container), Resin kit E (1 container) and 7 more items (12 containers in all)',
    );
    expect(await unknown.getByRole('link').count()).toBe(5);
    const meterGets = countSent(page, 'GET', /\/control-area\/meter$/);
    await unknown.getByRole('button', { name: 'Name them all' }).dblclick();
    await unknown.getByRole('link', { name: 'Solvent blend' }).waitFor();
    expect(await unknown.getByRole('link').count()).toBe(12);
    expect(await unknown.getByRole('button', { name: 'Name them all' }).count()).toBe(0);
    expect(meterGets()).toBe(1);

    // A limit set by hand, double-clicked: one change, the bar orange near the limit.
    await page.getByRole('button', { name: 'Change options and limits' }).click();
    await form.getByRole('button', { name: /Show all \d+ limits/ }).click();
    await form.getByRole('textbox', { name: 'Flammable liquids IB and IC', exact: true }).fill('5');
    await form.getByTestId('limit-field').filter({ hasText: 'Flammable liquids IB and IC' }).getByText('Set by hand.').first().waitFor();
    if (SHOTS) await form.screenshot({ path: `${SHOTS}/control-area-form-1280.png` });
    const puts = countSent(page, 'PUT', /\/locations\/[^/]+\/control-area$/);
    await form.getByRole('button', { name: 'Save the control area' }).dblclick();
    await line.getByText('Flammable liquids IB and IC: 4 L of 5 L: near the limit').waitFor();
    expect(await line.getAttribute('data-level')).toBe('near');
    expect(puts()).toBe(1);
    await page.getByTestId('limits-set').getByText('Flammable liquids IB and IC: 5 L').waitFor();
    const area = await api(`/locations/${cabinetId}/control-area`);
    expect(area.limits.filter((l: { source: string }) => l.source === 'set')).toEqual([
      expect.objectContaining({ category: 'flammable-liquid-ib-ic', limit: '5' }),
    ]);

    // The oxidizer beside the solvents: sentences naming both containers and why.
    const conflicts = page.getByTestId('conflict');
    await conflicts.first().waitFor();
    const sentences = await conflicts.allTextContents();
    expect(sentences).toContain(
      'Acetone (a flammable) and Hydrogen peroxide 30 % (an oxidizer) share this place: an oxidizer feeds a fire of flammables. Move one of them.',
    );
    expect(sentences.join(' ')).not.toMatch(/Sulfuric acid/);
    const main = await page.locator('main').innerText();
    expect(main).not.toMatch(/flammable-liquid|ib-ic|\/locations|source|warn\b|block\b/);
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/control-area-1280.png`, fullPage: true });

    // The acid said so on its item: now it conflicts with the solvents and the oxidizer too.
    await page.goto(`/app/inventory/items/${acidId}`);
    const hazards = page.getByTestId('item-hazards');
    await hazards.getByText('Stored as neither an acid nor a base; not an aqueous solution.').waitFor();
    await hazards.getByRole('button', { name: 'Edit storage' }).click();
    await hazards.getByRole('radio', { name: 'A corrosive acid' }).check();
    const attrs = countSent(page, 'PUT', /\/storage-attributes$/);
    await hazards.getByRole('button', { name: 'Save storage' }).dblclick();
    await hazards.getByText('Stored as a corrosive acid; not an aqueous solution.').waitFor();
    expect(attrs()).toBe(1);
    if (SHOTS) await hazards.screenshot({ path: `${SHOTS}/storage-attributes-1280.png` });
    await page.goto(`/app/locations/${cabinetId}?lab=${labId}`);
    await page.getByTestId('conflict').filter({ hasText: 'Sulfuric acid 95 % (an acid)' }).first().waitFor();

    // The lab refuses both: the setting in words, saved once.
    await page.goto(`/app/labs/${labId}/settings`);
    const safety = page.getByRole('form', { name: 'Storage safety' });
    await safety.getByRole('radio', { name: 'Refuse: the container cannot go there' }).check();
    await safety.getByRole('radio', { name: 'Refuse: nothing goes over the limit' }).check();
    const settings = countSent(page, 'PUT', /\/safety-settings$/);
    await safety.getByRole('button', { name: 'Save storage safety settings' }).dblclick();
    await safety.getByText('A container that would take a control area over its limit is refused.').waitFor();
    expect(settings()).toBe(1);
    expect(await api(`/labs/${labId}/safety-settings`)).toMatchObject({ segregation: 'block', limits: 'block' });
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.getByTestId('safety-settings').screenshot({ path: `${SHOTS}/safety-settings-1280.png` });

    // The form at 390 px: every field on screen, nothing sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/app/locations/${cabinetId}?lab=${labId}`);
    await page.getByRole('button', { name: 'Change options and limits' }).click();
    await form.getByRole('button', { name: /Show all \d+ limits/ }).click();
    await form.getByRole('textbox', { name: 'Corrosives, liquids', exact: true }).waitFor();
    await expectNoSidewaysScroll(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/control-area-form-390.png` });
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('a member reads the page without changing it; at 390 px nothing scrolls sideways', async () => {
    const context = await h.browser.newContext({ baseURL: h.origin, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/locations/${cabinetId}?lab=${labId}`);
    await page.getByTestId('meter-line').first().waitFor();
    await page.getByTestId('conflict').first().waitFor();
    expect(await page.getByRole('button', { name: 'Change options and limits' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'No longer a control area' }).count()).toBe(0);
    const box = (await page.getByTestId('meter-line').first().boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await expectNoSidewaysScroll(page);
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/control-area-390.png`, fullPage: true });
    // A shelf inside the area: not one itself, counted in the cabinet's.
    await page.goto(`/app/locations/${topShelfId}?lab=${labId}`);
    await page.getByText('Top shelf is not a control area.', { exact: false }).waitFor();
    expect(await page.getByTestId('enclosing-areas').innerText()).toBe(
      'What is stored here also counts in the control area Room 101 / Solvent cabinet.',
    );
    await page.getByTestId('no-conflicts').waitFor();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/inside-control-area-390.png`, fullPage: true });
    await context.close();
  });

  it('a limit below what is stored shows red, goes back to its default, then the location is no longer a control area', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', `/app/locations/${cabinetId}?lab=${labId}`);
    const form = page.getByRole('form', { name: 'Control area' });
    // Below what is stored: the line says by how much, in red.
    await page.getByRole('button', { name: 'Change options and limits' }).click();
    await form.getByRole('textbox', { name: 'Flammable liquids IB and IC', exact: true }).fill('3');
    await form.getByRole('button', { name: 'Save the control area' }).click();
    const line = page.getByTestId('meter-line').filter({ hasText: 'Flammable liquids IB and IC' });
    await line.getByText('Flammable liquids IB and IC: 4 L of 3 L: 1 L over the limit').waitFor();
    expect(await line.getAttribute('data-level')).toBe('over');

    await page.getByRole('button', { name: 'Change options and limits' }).click();
    const field = form.getByTestId('limit-field').filter({ hasText: 'Flammable liquids IB and IC' }).first();
    await field.getByRole('button', { name: 'Use the default' }).click();
    await field.getByText('Back to the default (its figure shows once saved).').waitFor();
    await form.getByRole('button', { name: 'Save the control area' }).click();
    await page.getByText('Flammable liquids IB and IC: 4 L of 454.249 L').waitFor();
    await page.getByText("Every limit follows the fire code's default for these options.").waitFor();

    await page.getByRole('button', { name: 'No longer a control area' }).click();
    await page.getByRole('button', { name: 'Yes, unmark it' }).dblclick();
    await page.getByText('Solvent cabinet is not a control area.', { exact: false }).waitFor();
    expect(await page.getByTestId('meter-line').count()).toBe(0);
    expect((await api(`/locations/${cabinetId}/control-area`)).marked).toBe(false);
    // What is kept apart does not depend on the marking.
    await page.getByTestId('conflict').first().waitFor();
    await context.close();
  });

  it("another organization's member finds no such location", async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-B@example.org', `/app/locations/${cabinetId}`);
    await page.getByTestId('not-found').getByText('This location does not exist, or it is not yours to see.').waitFor();
    expect(await page.getByTestId('control-area').count()).toBe(0);
    await context.close();
  });
});
