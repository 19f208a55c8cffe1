import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRule } from '../helpers/approvals.js';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, PASSWORD, startBrowserHarness } from '../helpers/browser.js';
import { createOrder, orderBody } from '../helpers/orders.js';

// Issue 23, "A home that says what needs me": /app/ counts what waits for the signed-in person (docs/web.md, Home),
// each card a link to the list it counts, and the navigation shows the same counts. Seeded: a request waiting for
// approval in org A's legacy lab (rule `all`, asked by the member, so the org admin approves it), an item expiring in
// ten days and an item below its minimum in the migrated lab.

let h: BrowserHarness;
const localDate = (days: number) => {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
/** What the API counts for the admin, as the home page asks it (X-Total-Count of a list of one). */
const apiCount = async (url: string) => {
  const res = await h.call(h.a.admin.token, { method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return Number(res.headers['x-total-count']);
};

beforeAll(async () => {
  h = await startBrowserHarness();
  await setRule(h, h.a.admin.token, h.a.legacyLab.id, { rule: 'all' });
  await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab, { name: 'Taq polymerase' }));
  // The admin's own request (no approval rule in the migrated lab): "Your open requests" counts only this one.
  await createOrder(h, h.a.admin.token, orderBody(h.a.migratedLab, { name: 'Pipette tips' }));
  const lab = h.a.migratedLab;
  const add = async (payload: Record<string, unknown>) => {
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/inventory-items',
      payload: { lab_id: lab.id, type_id: lab.typeId, ...payload },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  await add({ name: 'Expiring buffer', instances: [{ quantity: '1', expiration_date: localDate(10) }] });
  const low = await add({ name: 'Low antibody', instances: [{ quantity: '1' }] });
  const min = await h.call(h.a.admin.token, {
    method: 'PUT',
    url: `/inventory-items/${low}/minimum-quantity`,
    payload: { minimum_quantity: '5' },
  });
  expect(min.statusCode, min.body).toBe(200);
});
afterAll(() => h?.close());

const count = (page: Page, card: string) => page.getByTestId(card).getByTestId('count');

/** The home page of the migrated lab, chosen once and remembered from then on. */
async function openHome(page: Page) {
  await h.signIn(page, 'admin-A@example.org', '/app/');
  await page.getByTestId('need-approvals').waitFor();
  const lab = page.getByRole('combobox', { name: 'Lab' });
  if ((await lab.inputValue()) !== 'Migrated lab A') {
    await lab.click();
    await page.getByRole('option', { name: 'Migrated lab A' }).click();
  }
  await page.getByRole('heading', { name: 'Inventory in Migrated lab A' }).waitFor();
}

describe('journey: the home page says what needs me', () => {
  it('counts what the API counts (an approval, an expiring and a below-minimum item) and each card opens its list', async () => {
    const { page, context } = await h.newPage();
    await openHome(page);
    const lab = h.a.migratedLab.id;
    const expected = {
      'need-approvals': await apiCount('/order-requests/awaiting-approval?per_page=1'),
      'need-open': await apiCount('/order-requests?per_page=1&status=CREATED,APPROVED,ORDERED,BACKORDERED&requested_by=me'),
      'need-expiring': await apiCount(`/inventory-items?lab_id=${lab}&expiring_before=${localDate(31)}&per_page=1`),
      'need-below-minimum': await apiCount(`/inventory-items?lab_id=${lab}&below_minimum=true&per_page=1`),
    };
    // The seeded rows are in them: the counts are not trivially zero.
    expect(expected).toEqual({ 'need-approvals': 1, 'need-open': 1, 'need-expiring': 1, 'need-below-minimum': 1 });
    for (const [card, n] of Object.entries(expected))
      await expect.poll(() => count(page, card).innerText(), { timeout: 5000 }).toBe(String(n));
    expect(await page.getByTestId('open-created').innerText()).toBe('Created 1');
    // The navigation shows the counts too.
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Awaiting my approval' }).getByTestId('nav-count').innerText()).toBe('1');
    expect(await nav.getByRole('link', { name: 'Order requests' }).getByTestId('nav-count').innerText()).toBe('1');
    expect(await nav.getByRole('link', { name: 'Inventory' }).getByTestId('nav-count').innerText()).toBe('2');
    await expectNoSeriousAxeViolations(page);

    // Each card is a link to the list it counts.
    await page.getByTestId('need-approvals').getByRole('link').click();
    await page.waitForURL('**/app/order-requests/awaiting-approval');
    await page.getByTestId('approvals-table').getByRole('link', { name: 'Taq polymerase' }).waitFor();

    await page.goto('/app/');
    await page.getByTestId('need-expiring').getByRole('link').click();
    await page.waitForURL(/\/app\/inventory\?/);
    const expiringUrl = new URL(page.url()).searchParams;
    expect([expiringUrl.get('lab'), expiringUrl.get('expiring')]).toEqual([lab, localDate(31)]);
    await expect
      .poll(() => page.getByTestId('items-table').locator('tbody tr').allInnerTexts())
      .toEqual([expect.stringContaining('Expiring buffer')]);

    await page.goto('/app/');
    await page.getByTestId('need-below-minimum').getByRole('link').click();
    await page.waitForURL(/below=true/);
    expect(new URL(page.url()).searchParams.get('lab')).toBe(lab);
    await expect
      .poll(() => page.getByTestId('items-table').locator('tbody tr').allInnerTexts())
      .toEqual([expect.stringContaining('Low antibody')]);

    await page.goto('/app/');
    await page.getByTestId('open-created').click();
    await page.waitForURL(/\/app\/order-requests\?status=CREATED&mine=1$/);
    await page.getByTestId('orders-table').getByRole('link', { name: 'Pipette tips' }).waitFor();
    expect(await page.getByTestId('orders-table').getByText('Taq polymerase').count()).toBe(0);
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('remembers the lab: the locations opened without one show the lab last worked in (the inventory lists every lab)', async () => {
    const { page, context } = await h.newPage();
    await openHome(page);
    await page.getByRole('link', { name: 'Locations' }).first().click();
    await page.waitForURL(`**/app/locations?lab=${h.a.migratedLab.id}`);
    await page.getByTestId('location-tree').waitFor();
    await context.close();
  });

  it("signing out and in as someone else shows their counts, never the previous person's", async () => {
    const { page, context } = await h.newPage();
    await openHome(page);
    await expect.poll(() => count(page, 'need-approvals').innerText()).toBe('1');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    // In the same tab, without loading the page again (the application's memory is what could leak). The member
    // asked for the request: nothing waits for their approval.
    await page.getByLabel('E-mail').fill('member-A@example.org');
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('signed-in-as').waitFor({ state: 'attached' });
    if (!page.url().endsWith('/app/')) await page.getByRole('link', { name: 'Home' }).first().click();
    await expect.poll(() => count(page, 'need-approvals').innerText(), { timeout: 5000 }).toBe('0');
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Awaiting my approval' }).getByTestId('nav-count').count()).toBe(0);
    await context.close();
  });

  it('at 390 px the counts are on the screen', async () => {
    const { page, context } = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await openHome(page);
    await expect.poll(() => count(page, 'need-approvals').innerText()).toBe('1');
    for (const card of ['need-approvals', 'need-open', 'need-expiring', 'need-below-minimum']) {
      const number = count(page, card);
      await number.scrollIntoViewIfNeeded();
      const box = (await number.boundingBox())!;
      const viewport = page.viewportSize()!;
      expect(box.x, card).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, card).toBeLessThanOrEqual(390);
      expect(box.y + box.height, card).toBeLessThanOrEqual(viewport.height);
      expect(await number.isVisible(), card).toBe(true);
    }
    await page.evaluate('window.scrollTo(0, 0)');
    // The first card needs no scrolling at all.
    const first = (await count(page, 'need-approvals').boundingBox())!;
    expect(first.y + first.height).toBeLessThanOrEqual(844);
    await expectNoSidewaysScroll(page);
    await expectNoSeriousAxeViolations(page);
    await context.close();
  });
});
