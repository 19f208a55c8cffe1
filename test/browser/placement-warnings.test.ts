// Journey (issue 26, docs/safety.md "What the app shows"): in the demo's chemistry lab (src/demo/chemistry.ts), an
// oxidizer moved into the flammables cabinet warns with a sentence naming both; approving the ethanol request that
// would take the cabinet over its limit warns with the figures, and "Go ahead anyway" double-clicked approves once
// (receiving it into the cabinet, or putting it away there, warns the same);
// in block mode the app says the lab's settings refuse it, in words and with who can change them, and nothing
// changes. The warning in its dialog at 1280 px and 390 px (PLACEMENT_SCREENSHOTS=dir keeps the pictures).

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoChemistry, seedChemistry } from '../../src/demo/chemistry.js';
import { createOrder } from '../../src/order-requests/service.js';
import type { Actor } from '../../src/shared/actor.js';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
let chem: DemoChemistry;
let member: Actor;
beforeAll(async () => {
  h = await startBrowserHarness();
  member = { tokenId: 'fixture', userId: h.a.member.id, organizationId: h.a.orgId, role: 'member' };
  chem = await seedChemistry(h.deps, { admin: h.a.admin.actor, member, organizationId: h.a.orgId });
});
afterAll(() => h?.close());

const SHOTS = process.env.PLACEMENT_SCREENSHOTS;
const ADMIN = 'admin-A@example.org';
const CABINET = 'Chemistry Building / Room 3.12 / Flammables cabinet';
const FIGURES = 'Flammable liquids IB and IC in Flammables cabinet: 17.5 L of 20 L; this adds 5 L, 2.5 L over the limit';

const get = async (url: string) => (await h.call(h.a.admin.token, { method: 'GET', url })).json();
async function itemNamed(name: string) {
  const items = await get(`/inventory-items?lab_id=${chem.chemistry_lab_id}&per_page=100`);
  return items.find((i: { name: string }) => i.name === name);
}
const whereIs = async (name: string): Promise<string> => (await itemNamed(name)).instances[0].location.pathNames.join(' / ');
const approvalsOf = async (id: string) =>
  (await get(`/order-requests/${id}/history`)).filter((e: { type: string }) => e.type === 'APPROVED').length;

async function moveToCabinet(page: Page, lot: string) {
  const card = page.getByRole('region', { name: `Instance: lot ${lot}` });
  await card.getByRole('combobox', { name: `Location of lot ${lot}` }).click();
  await page.getByRole('option', { name: CABINET, exact: true }).click();
  await card.getByRole('button', { name: `Save lot ${lot}` }).click();
  return card;
}

describe('journey: the app warns before a container goes where it should not', () => {
  it('an oxidizer put beside a solvent warns, naming both; going ahead moves it once; adding one beside a solvent warns too', async () => {
    const permanganate = await itemNamed('Potassium permanganate');
    const { page } = await h.newPage();
    await h.signIn(page, ADMIN, `/app/inventory/items/${permanganate.id}`);
    await moveToCabinet(page, '223468-1');
    const dialog = page.getByTestId('placement-dialog');
    const warning = dialog.getByTestId('placement-warning');
    await warning.getByText(/^Potassium permanganate \(oxidizers\) beside Ethanol absolute \(flammables\): .* \(4 containers\)$/).waitFor();
    await warning.getByText(/^Potassium permanganate \(oxidizers\) beside Acetone \(flammables\): .* \(2 containers\)$/).waitFor();
    await warning.getByText(/^Potassium permanganate \(oxidizers\) beside n-Hexane \(flammables\): [^(]*$/).waitFor();
    // Not moved yet: the person decides.
    expect(await whereIs('Potassium permanganate')).toBe('Chemistry Building / Room 3.12 / Open shelf A');
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/segregation-warning-1280.png` });
    await dialog.getByRole('button', { name: 'Go ahead anyway' }).dblclick();
    await page.getByText(/Lot 223468-1 · expires 2028-06-30 · .*Flammables cabinet/).waitFor();
    expect(await whereIs('Potassium permanganate')).toBe(CABINET);
    const moves = (await get(`/inventory-items/${permanganate.id}/history`)).filter(
      (c: { field: string }) => c.field === 'instance.location_id',
    );
    expect(moves).toHaveLength(1);

    // Another bottle added on the open shelf, beside the acetone wash bottle: the same warning, and one bottle added.
    await page.getByRole('button', { name: 'Add an instance' }).click();
    const form = page.getByRole('form', { name: 'Add an instance' });
    await form.getByLabel('Quantity').fill('1');
    await form.getByRole('combobox', { name: 'Location' }).click();
    await page.getByRole('option', { name: 'Chemistry Building / Room 3.12 / Open shelf A', exact: true }).click();
    await form.getByRole('button', { name: 'Add instance' }).dblclick();
    await warning.getByText(/^Potassium permanganate \(oxidizers\) beside Acetone \(wash bottle stock\) \(flammables\): /).waitFor();
    expect((await itemNamed('Potassium permanganate')).instances).toHaveLength(1);
    await dialog.getByRole('button', { name: 'Go ahead anyway' }).dblclick();
    await expect.poll(async () => (await itemNamed('Potassium permanganate')).instances.length).toBe(2);
    await page.waitForTimeout(500);
    expect((await itemNamed('Potassium permanganate')).instances).toHaveLength(2);
  });

  it('approving a request over the limit warns with the figures; approving anyway approves once; receiving and putting it away warn the same', async () => {
    const { page } = await h.newPage();
    await h.signIn(page, ADMIN, '/app/order-requests/awaiting-approval');
    await page.getByRole('button', { name: 'Approve Ethanol absolute' }).click();
    const dialog = page.getByTestId('placement-dialog');
    await dialog.getByTestId('placement-warning').getByText(FIGURES).waitFor();
    expect(await approvalsOf(chem.over_limit_request_id)).toBe(0);
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/placement-warning-1280.png` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    // On a phone (the queue's rows are cards there) the figures are on screen, and so is the button.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Approve Ethanol absolute' }).click();
    await expect.poll(() => dialog.getByText(FIGURES).isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Go ahead anyway' }).scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/placement-warning-390.png` });
    expect(await approvalsOf(chem.over_limit_request_id)).toBe(0);
    await dialog.getByRole('button', { name: 'Go ahead anyway' }).dblclick();
    await page.getByTestId('no-approvals').waitFor();
    expect((await get(`/order-requests/${chem.over_limit_request_id}`)).status).toBe('APPROVED');
    expect(await approvalsOf(chem.over_limit_request_id)).toBe(1);

    // Ordered, then received into the cabinet: the same figures before anything is received; Cancel leaves it so.
    const ordered = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/order-requests/${chem.over_limit_request_id}`,
      payload: { status: 'ORDERED' },
    });
    expect(ordered.statusCode, ordered.body).toBe(200);
    await page.goto(`${h.origin}/app/order-requests/${chem.over_limit_request_id}`);
    await page.getByRole('button', { name: 'Receive…' }).click();
    const form = page.getByRole('form', { name: 'Receive' });
    await form.getByRole('combobox', { name: 'Location' }).click();
    await page.getByRole('option', { name: CABINET, exact: true }).click();
    await form.getByRole('button', { name: 'Receive', exact: true }).click();
    await dialog.getByTestId('placement-warning').getByText(FIGURES).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await get(`/order-requests/${chem.over_limit_request_id}/delivery`)).received_quantity).toBe('0');

    // Received without a place, then put away into the cabinet: the same figures; Cancel leaves it to put away.
    await page.reload();
    await page.getByRole('button', { name: 'Receive…' }).click();
    await form.getByRole('button', { name: 'Receive', exact: true }).click();
    await expect.poll(async () => (await get(`/order-requests/${chem.over_limit_request_id}/delivery`)).received_quantity).toBe('2');
    await page.goto(`${h.origin}/app/put-away?lab=${chem.chemistry_lab_id}`);
    const row = page.getByRole('form', { name: 'To put away: Ethanol absolute' });
    await row.getByRole('combobox', { name: 'Location' }).click();
    await page.getByRole('option', { name: CABINET, exact: true }).click();
    await row.getByRole('button', { name: 'Put away Ethanol absolute' }).click();
    await dialog.getByTestId('placement-warning').getByText(FIGURES).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await get(`/put-away?lab_id=${chem.chemistry_lab_id}`)).length).toBe(1);
  });

  it('in block mode: the refusal in words, who can change it, and nothing changed', async () => {
    const set = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/labs/${chem.chemistry_lab_id}/safety-settings`,
      payload: { segregation: 'block', limits: 'block' },
    });
    expect(set.statusCode, set.body).toBe(200);
    const more = await createOrder(h.deps, member, {
      lab_id: chem.chemistry_lab_id,
      type_id: (await itemNamed('Ethanol absolute')).type.id,
      name: 'Ethanol absolute',
      vendor_name: 'Sigma-Aldrich',
      catalog_number: '32221',
      price: { amount: '6490', currency: 'USD' },
      quantity: 2,
    });
    const { page } = await h.newPage();
    await h.signIn(page, ADMIN, `/app/order-requests/${more.id}`);
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    const dialog = page.getByTestId('placement-dialog');
    const refused = dialog.getByTestId('placement-refused');
    // The first request all received (waiting to be put away, in no area yet): 17.5 L stored, this adds 5 L.
    await refused.getByText(FIGURES).waitFor();
    await refused.getByText(/managers and organization admins can change this/).waitFor();
    expect(await dialog.getByRole('button', { name: 'Go ahead anyway' }).count()).toBe(0);
    await expectNoSeriousAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/refused-1280.png` });
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    expect((await get(`/order-requests/${more.id}`)).status).toBe('CREATED');

    // The server's own refusal (its check said nothing here, so the write went and was refused): its words, no code.
    await page.route('**/placement-checks', (route) =>
      route.fulfill({
        json: { segregation: [], limits: [], unknown_amounts: [], modes: { segregation: 'block', limits: 'block' }, blocked: false },
      }),
    );
    // Sulfuric acid (an acid) into the cabinet of flammables: acids and flammables are kept apart.
    const acid = await itemNamed('Sulfuric acid 95–98 %');
    await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${acid.id}/storage-attributes`,
      payload: { corrosive: 'acid', aqueous: false },
    });
    await page.goto(`${h.origin}/app/inventory/items/${acid.id}`);
    const card = await moveToCabinet(page, '258105-1');
    const refusal = card.getByTestId('placement-refusal');
    await refusal.getByText(/^Sulfuric acid 95–98 % \(acids\) beside Ethanol absolute \(flammables\): .* \(4 containers\)$/).waitFor();
    await refusal.getByText(/^Sulfuric acid 95–98 % \(acids\) beside Potassium permanganate \(oxidizers\): [^(]*$/).waitFor();
    await refusal.getByText(/Nothing was changed/).waitFor();
    if (SHOTS) {
      await page.setViewportSize({ width: 390, height: 844 });
      await refusal.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/refusal-390.png` });
    }
    const text = await page.locator('body').innerText();
    expect(text).not.toContain('segregation_conflict');
    expect(text).not.toContain('409');
    expect(await whereIs('Sulfuric acid 95–98 %')).toBe('Chemistry Building / Room 3.12 / Corrosives cabinet');
  });
});
