import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { checkoutRequests, placeOne, type ShopFixture, setupShop, shopRequest } from '../helpers/shop.js';

let h: BrowserHarness;
let shop: ShopFixture;
let placed: Awaited<ReturnType<typeof placeOne>>;
beforeAll(async () => {
  h = await startBrowserHarness();
  shop = await setupShop(h);
  placed = await placeOne(h, h.a.member.token, h.a.migratedLab, shop.products.M0530S!, 2);
});
afterAll(() => h?.close());

/** Wholly inside the window as it is now: what a person sees. */
async function expectInView(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  const view = page.viewportSize()!;
  expect(box, 'on the page').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(view.width);
  expect(box!.y + box!.height).toBeLessThanOrEqual(view.height);
}

describe('journey: an operator fulfils a shop order, the lab follows it', () => {
  it('the operator ships and delivers one line and backorders and cancels another; the lab sees shipment and tracking', async () => {
    const other = await placeOne(h, h.a.member.token, h.a.migratedLab, shop.products['352070']!, 1);
    const { page, context } = await h.newPage();
    // Operators have no session: the page asks for an operator token, and a tenant token is refused by the server.
    await page.goto('/app/shop/fulfilment');
    await page.getByLabel('Operator token').fill(h.a.admin.token);
    await page.getByRole('button', { name: 'Open the queue' }).click();
    await page
      .getByRole('alert')
      .getByText(/service operators/)
      .waitFor();
    await page.getByRole('button', { name: 'Use another token' }).click();
    await page.getByLabel('Operator token').fill(shop.operator.token);
    await page.getByRole('button', { name: 'Open the queue' }).click();
    await page.getByTestId('fulfilment-table').waitFor();
    await expectNoSeriousAxeViolations(page);

    const row = page.getByTestId('fulfilment-line').filter({ hasText: placed.order.key });
    expect(await row.innerText()).toContain('Phusion High-Fidelity DNA Polymerase');
    expect(await row.innerText()).toContain('Migrated lab A');
    await row.getByRole('button', { name: 'Ship…' }).click();
    await page.getByRole('textbox', { name: 'Carrier' }).fill('UPS');
    await page.getByRole('textbox', { name: 'Tracking' }).fill('1Z999AA10123456784');
    expect(await page.getByRole('textbox', { name: 'Quantity' }).inputValue()).toBe('2');
    await expectNoSeriousAxeViolations(page);
    await page.getByRole('button', { name: 'Ship', exact: true }).click();
    await row.getByText('Shipped', { exact: true }).waitFor();
    expect(await row.innerText()).toContain('2 of 2');
    // Shipped in full: no more shipping, backordering or cancelling, only delivery.
    expect(await row.getByRole('button', { name: /Ship…|Backorder…|Cancel…/ }).count()).toBe(0);
    await row.getByRole('button', { name: 'Mark delivered' }).click();
    // Delivered lines leave the open queue.
    await row.waitFor({ state: 'detached' });

    const second = page.getByTestId('fulfilment-line').filter({ hasText: other.order.key });
    await second.getByRole('button', { name: 'Backorder…' }).click();
    await page.getByLabel('Expected on').fill('2031-03-15');
    await page.getByRole('button', { name: 'Backorder', exact: true }).click();
    await second.getByText('expected 2031-03-15').waitFor();
    await second.getByRole('button', { name: 'Cancel…' }).click();
    await page.getByRole('textbox', { name: 'Reason' }).fill('discontinued');
    await page.getByRole('button', { name: 'Cancel the line' }).click();
    await second.waitFor({ state: 'detached' });
    await page.getByText('All', { exact: true }).click();
    await page.getByTestId('fulfilment-line').filter({ hasText: other.order.key }).getByText('cancelled').waitFor();
    await context.close();

    const line = (await h.call(h.a.member.token, { method: 'GET', url: `/shop/orders/${placed.order.id}` })).json().items[0];
    expect(line.status).toBe('DELIVERED');
    expect(line.shipments).toMatchObject([{ carrier: 'UPS', tracking: '1Z999AA10123456784', quantity: 2 }]);

    // The lab opens the line's app_url: the line, its shipment and tracking, delivered.
    const lab = await h.newPage();
    await h.signIn(lab.page, 'member-A@example.org', new URL(line.app_url).pathname + new URL(line.app_url).hash);
    const card = lab.page.locator(`#item-${line.id}`);
    await card.getByTestId('shipments-table').waitFor();
    expect(await card.getByTestId('line-status').innerText()).toMatch(/delivered/i);
    const shipments = await card.getByTestId('shipments-table').innerText();
    expect(shipments).toContain('UPS');
    expect(shipments).toContain('1Z999AA10123456784');
    expect(shipments).not.toContain('on its way');
    await expectNoSeriousAxeViolations(lab.page);
    // Lab users have no fulfilment in their navigation.
    expect(
      await lab.page
        .getByRole('navigation')
        .getByRole('link', { name: /fulfil/i })
        .count(),
    ).toBe(0);
    await lab.context.close();
    // Only the tenant token's 403 on fulfilment may be logged (Chromium logs every 4xx load).
    expect(h.consoleErrors.filter((m) => !/status of 403/.test(m))).toEqual([]);
  });

  it('the queue pages through every open line (125 more, past the 100 it once stopped at), with the total; a line is a card on a phone', async () => {
    // Two orders of 100 and 25 lines (a checkout takes at most 100 requests), after every line above: last in the queue.
    const orders = [];
    for (const size of [100, 25]) {
      const ids = [];
      for (let i = 0; i < size; i++) ids.push(await shopRequest(h, h.a.member.token, h.a.migratedLab, shop.products.A9539!, 1));
      const res = await checkoutRequests(h, h.a.member.token, h.a.migratedLab.id, ids);
      expect(res.statusCode, res.body).toBe(201);
      orders.push(res.json());
    }
    const open = await h.call(shop.operator.token, {
      method: 'GET',
      url: '/shop/order-items?per_page=1&status=PLACED&status=BACKORDERED&status=INDEFINITELY_BACKORDERED&status=SHIPPED',
    });
    const total = Number(open.headers['x-total-count']);
    expect(total).toBeGreaterThanOrEqual(125);
    const pages = Math.ceil(total / 50);

    const { page, context } = await h.newPage();
    await page.goto('/app/shop/fulfilment');
    await page.getByLabel('Operator token').fill(shop.operator.token);
    await page.getByRole('button', { name: 'Open the queue' }).click();
    await page.getByTestId('fulfilment-table').waitFor();
    expect(await page.getByTestId('fulfilment-total').innerText()).toBe(`${total} lines · page 1 of ${pages}`);
    expect(await page.getByTestId('fulfilment-line').count()).toBe(50);
    // Every line is on some page: 100 of the first order and 25 of the second, those last.
    let shown = 0;
    const ofOrder = [0, 0];
    for (let n = 1; n <= pages; n++) {
      if (n > 1) {
        await page.getByRole('button', { name: 'next page' }).click();
        // The whole caption: while the page turns it reads "turning to page n", the previous page's rows in view.
        await page.getByTestId('fulfilment-total').getByText(`${total} lines · page ${n} of ${pages}`, { exact: true }).waitFor();
      }
      const rows = page.getByTestId('fulfilment-line');
      shown += await rows.count();
      for (const i of [0, 1]) ofOrder[i]! += await rows.filter({ hasText: orders[i].key }).count();
    }
    expect(shown).toBe(total);
    expect(ofOrder).toEqual([100, 25]);
    expect(await page.getByTestId('fulfilment-line').last().innerText()).toContain(orders[1].key);
    await expectNoSeriousAxeViolations(page);

    // On a phone each line is a card: its status and buttons within the screen, the form opened under its line.
    await page.setViewportSize({ width: 390, height: 844 });
    const card = page.getByTestId('fulfilment-line').first();
    await card.scrollIntoViewIfNeeded();
    await expectInView(page, card.getByText(/^placed$/i));
    await expectInView(page, card.getByRole('button', { name: 'Ship…' }));
    await card.getByRole('button', { name: 'Ship…' }).click();
    const carrier = card.getByRole('textbox', { name: 'Carrier' });
    await carrier.scrollIntoViewIfNeeded();
    await expectInView(page, carrier);
    await expectNoSidewaysScroll(page);
    await expectNoSeriousAxeViolations(page);
    await context.close();
  });

  it("another organization's shop order shows not found", async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-B@example.org', new URL(placed.order.app_url).pathname);
    await page.getByTestId('not-found').waitFor();
    const content = await page.content();
    expect(content).not.toContain(placed.order.key);
    expect(content).not.toContain('Phusion');
    await context.close();
  });
});
