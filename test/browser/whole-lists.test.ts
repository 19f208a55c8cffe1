import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRule } from '../helpers/approvals.js';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { createOrder, orderBody } from '../helpers/orders.js';
import { placeOne, setupShop } from '../helpers/shop.js';

// Issue 23, "Whole lists, one data layer" (docs/web.md, Data layer): lists of more than 100 show their total and page
// to the last one; the order-request list searches, narrows to "Mine" and is newest first; at 390 px the request's
// Status and the queue's Approve are on screen; a double-clicked Invite makes one invitation.

let h: BrowserHarness;
const REQUESTS = 121;
const SHOP_ORDERS = 121;
let firstRequest = '';
let firstShopOrderKey = '';
let lastShopOrderKey = '';
beforeAll(async () => {
  h = await startBrowserHarness();
  const shop = await setupShop(h);
  const lab = h.a.legacyLab;
  for (let i = 1; i <= REQUESTS; i++) {
    const name = i === 1 ? 'Oldest centrifuge tubes' : i === REQUESTS ? 'Newest pipette tips' : `Buffer batch ${i}`;
    await createOrder(h, h.a.admin.token, orderBody(lab, { name }));
  }
  firstRequest = 'Oldest centrifuge tubes';
  for (const name of ['Member needle-7 syringes', 'Member gloves']) await createOrder(h, h.a.member.token, orderBody(lab, { name }));
  for (let i = 0; i < SHOP_ORDERS; i++) {
    const { order } = await placeOne(h, h.a.admin.token, h.a.otherLab, shop.products.M0530S!);
    if (i === 0) firstShopOrderKey = order.key;
    lastShopOrderKey = order.key;
  }
  // The migrated lab needs approval: the member's request waits in the org admin's queue.
  await setRule(h, h.a.admin.token, h.a.migratedLab.id, { rule: 'all' });
  await createOrder(h, h.a.member.token, orderBody(h.a.migratedLab, { name: 'Waiting antibody' }));
}, 120_000);
afterAll(() => h?.close());

/** SHOTS=dir saves what each journey saw, to look at (docs/web.md asks for a look at every page changed). */
const shot = async (page: Page, name: string) => {
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/${name}.png`, fullPage: false });
};

const totalOf = async (token: string, url: string) => Number((await h.call(token, { method: 'GET', url })).headers['x-total-count']);

/** Within the 390 × 844 viewport: the element's box lies inside it, nothing of it off to the right. */
async function expectOnScreen(page: Page, locator: Locator) {
  await locator.waitFor();
  const box = await locator.boundingBox();
  expect(box, 'rendered').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(page.viewportSize()!.height);
}

async function lastPage(page: Page, testId: string, expectedTotal: number, noun: string) {
  const total = page.getByTestId(testId).getByTestId('list-total');
  const pages = Math.ceil(expectedTotal / 25);
  await total.getByText(`${expectedTotal} ${noun} · page 1 of ${pages}`).waitFor();
  await page.getByRole('button', { name: `Page ${pages}`, exact: true }).click();
  await total.getByText(`${expectedTotal} ${noun} · page ${pages} of ${pages}`, { exact: true }).waitFor();
  return expectedTotal - 25 * (pages - 1);
}

describe('journey: whole lists', () => {
  it('every order request: the total, newest first, and the last page holds the oldest', async () => {
    const { page, context } = await h.newPage();
    const all = await totalOf(h.a.admin.token, '/order-requests');
    expect(all).toBeGreaterThan(120 + SHOP_ORDERS);
    await h.signIn(page, 'admin-A@example.org', '/app/order-requests?status=all');
    const table = page.getByRole('table', { name: 'Order requests' });
    // Newest first: the member's requests were made after the admin's, the shop's after those.
    await table.getByRole('row').nth(1).waitFor();
    expect(await table.getByRole('row').nth(1).innerText()).toContain('Waiting antibody');
    await table.getByRole('columnheader', { name: 'Requested by' }).waitFor();
    await expectNoSeriousAxeViolations(page);
    await shot(page, 'requests-1280');
    const onLast = await lastPage(page, 'orders-table', all, 'requests');
    await table.getByRole('link', { name: firstRequest }).waitFor();
    expect(await table.getByRole('row').count()).toBe(onLast + 1);
    expect(page.url()).toContain(`page=${Math.ceil(all / 25)}`);

    // Oldest first from the Requested header: the first page starts with the oldest.
    await table
      .getByRole('button', { name: /Requested/ })
      .first()
      .click();
    await page.getByTestId('list-total').getByText('page 1 of', { exact: false }).waitFor();
    await table.getByRole('row').nth(1).getByRole('link', { name: firstRequest }).waitFor();
    expect(await table.getByRole('row').nth(1).innerText()).toContain('Ada AdminA');
    await context.close();
  });

  it('turning a page: until the next page comes, the caption says it is turning, over the rows of the page before', async () => {
    const { page, context } = await h.newPage();
    const all = await totalOf(h.a.admin.token, '/order-requests');
    const pages = Math.ceil(all / 25);
    await h.signIn(page, 'admin-A@example.org', '/app/order-requests?status=all');
    const table = page.getByRole('table', { name: 'Order requests' });
    const caption = page.getByTestId('orders-table').getByTestId('list-total');
    await caption.getByText(`${all} requests · page 1 of ${pages}`, { exact: true }).waitFor();
    const firstRow = await table.getByRole('row').nth(1).innerText();
    // The second page's answer is held back until the caption has been read.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const secondPage = (url: URL) => url.pathname === '/order-requests' && url.searchParams.get('page') === '2';
    await page.route(secondPage, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await caption.getByText(`${all} requests · turning to page 2 of ${pages}`, { exact: true }).waitFor();
    expect(await table.getByRole('row').nth(1).innerText()).toBe(firstRow);
    await shot(page, 'requests-turning-1280');
    release();
    await caption.getByText(`${all} requests · page 2 of ${pages}`, { exact: true }).waitFor();
    expect(await table.getByRole('row').nth(1).innerText()).not.toBe(firstRow);
    await page.unroute(secondPage);

    // On a phone the same words, beside the pager, within the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    const thirdPage = (url: URL) => url.pathname === '/order-requests' && url.searchParams.get('page') === '3';
    let releaseThird!: () => void;
    const heldThird = new Promise<void>((resolve) => {
      releaseThird = resolve;
    });
    await page.route(thirdPage, async (route) => {
      await heldThird;
      await route.continue();
    });
    await page.getByRole('button', { name: 'next page' }).click();
    const turning = caption.getByText(`${all} requests · turning to page 3 of ${pages}`, { exact: true });
    await turning.waitFor();
    await turning.scrollIntoViewIfNeeded();
    const box = (await turning.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await expectNoSidewaysScroll(page);
    await shot(page, 'requests-turning-390');
    releaseThird();
    await caption.getByText(`${all} requests · page 3 of ${pages}`, { exact: true }).waitFor();
    await page.unroute(thirdPage);
    await context.close();
  });

  it('search finds inside words, and "Mine" keeps the person\'s own', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/order-requests?status=all');
    const table = page.getByRole('table', { name: 'Order requests' });
    await table.waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('edle-7');
    await page.getByTestId('list-total').getByText('1 request', { exact: true }).waitFor();
    expect(await table.getByRole('row').nth(1).innerText()).toContain('Member needle-7 syringes');
    expect(page.url()).toContain('q=edle-7');
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.getByText('Mine', { exact: true }).click();
    await page.getByTestId('list-total').getByText('3 requests', { exact: true }).waitFor();
    const names = await table.locator('tbody tr td:first-child').allInnerTexts();
    expect(names.sort()).toEqual(['Member gloves', 'Member needle-7 syringes', 'Waiting antibody']);
    await context.close();
  });

  it('every shop order, oldest first as the API lists them, paged to the last, which holds the newest', async () => {
    const { page, context } = await h.newPage();
    const all = await totalOf(h.a.admin.token, '/shop/orders');
    expect(all).toBe(SHOP_ORDERS);
    await h.signIn(page, 'admin-A@example.org', '/app/shop/orders');
    await page.getByRole('table', { name: 'Shop orders' }).getByRole('link', { name: firstShopOrderKey }).waitFor();
    const onLast = await lastPage(page, 'sales-orders-table', all, 'orders');
    const table = page.getByRole('table', { name: 'Shop orders' });
    await table.getByRole('link', { name: lastShopOrderKey }).waitFor();
    await shot(page, 'shop-orders-1280');
    expect(await table.getByRole('row').count()).toBe(onLast + 1);
    await context.close();
  });

  it("at 390 px a request's Status and the queue's Approve are on screen", async () => {
    const { page, context } = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await h.signIn(page, 'member-A@example.org', '/app/order-requests');
    const list = page.getByRole('list', { name: 'Order requests' });
    const first = list.getByRole('listitem').first();
    await first.getByText('Waiting antibody').waitFor();
    await expectOnScreen(page, first.getByText('Requested', { exact: true }).last());
    await expectOnScreen(page, first.locator('.mantine-Badge-root'));
    await expectNoSidewaysScroll(page);
    await expectNoSeriousAxeViolations(page);
    await shot(page, 'requests-390');
    await context.close();

    const admin = await h.newPage();
    await admin.page.setViewportSize({ width: 390, height: 844 });
    await h.signIn(admin.page, 'admin-A@example.org', '/app/order-requests/awaiting-approval');
    const approve = admin.page.getByRole('button', { name: 'Approve Waiting antibody' });
    await expectOnScreen(admin.page, approve);
    await expectNoSidewaysScroll(admin.page);
    await shot(admin.page, 'queue-390');
    await approve.click();
    await admin.page.getByTestId('no-approvals').waitFor();
    await admin.context.close();
  });

  it('a double-clicked Invite names the person and the lab, and makes one invitation', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', '/app/admin/members');
    const form = page.getByRole('form', { name: 'Invite someone' });
    await form.getByRole('textbox', { name: 'First name' }).fill('Ada');
    await form.getByRole('textbox', { name: 'Last name' }).fill('Lovelace');
    await form.getByRole('textbox', { name: 'E-mail' }).fill('ada@lab.example');
    await form.getByRole('combobox', { name: 'Joins the lab' }).click();
    await page.getByRole('option', { name: 'Legacy lab A' }).click();
    const invite = form.getByRole('button', { name: 'Invite Ada Lovelace to Legacy lab A' });
    await shot(page, 'invite-1280');
    await invite.dblclick();
    await page.getByTestId('issued-link').getByText('Invitation for Ada Lovelace (ada@lab.example)').waitFor();
    const users = await h.deps.db.selectFrom('users').select('id').where('email', '=', 'ada@lab.example').execute();
    expect(users).toHaveLength(1);
    const links = await h.deps.db.selectFrom('user_links').select('id').where('user_id', '=', users[0]!.id).execute();
    expect(links).toHaveLength(1);
    expect(await page.getByText('Not invited').count()).toBe(0);
    const members = (await h.call(h.a.admin.token, { method: 'GET', url: `/organization/labs/${h.a.legacyLab.id}/members` })).json();
    expect(members.map((m: { email: string }) => m.email)).toContain('ada@lab.example');
    // Ada is invited, not active: "Resend" is offered for her; the admin cannot deactivate themselves.
    const table = page.getByTestId('members-table');
    await table.getByRole('button', { name: 'New invitation link for Ada Lovelace' }).waitFor();
    expect(await table.getByRole('button', { name: 'New invitation link for Max MemberA' }).count()).toBe(0);
    expect(await table.getByRole('button', { name: 'Deactivate Ada AdminA' }).count()).toBe(0);
    await table.getByRole('button', { name: 'Deactivate Max MemberA' }).waitFor();
    await shot(page, 'members-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await shot(page, 'members-390');
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });
});
