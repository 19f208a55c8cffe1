import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { createOrder, orderBody } from '../helpers/orders.js';

// Issue 23, "Their words, not ours" (docs/web.md): statuses in words, never enum capitals or lab-mode badges; an error
// is a sentence, its request id behind a closed "Details"; history rows are sentences that name the lot and the place.

const CAPITALS = /\b(CREATED|APPROVED|ORDERED|BACKORDERED|RECEIVED|CANCELLED|LEGACY|INSTANCES)\b/;

let h: BrowserHarness;
const ids: Record<string, string> = {};
beforeAll(async () => {
  h = await startBrowserHarness();
  const put = (id: string, status: string) =>
    h.call(h.a.member.token, { method: 'PUT', url: `/order-requests/${id}`, payload: { status } });
  for (const [name, path] of Object.entries({
    created: [],
    ordered: ['ORDERED'],
    received: ['ORDERED', 'RECEIVED'],
    cancelled: ['CANCELLED'],
  })) {
    const order = await createOrder(h, h.a.member.token, orderBody(h.a.migratedLab, { name: `Words ${name}` }));
    for (const status of path) expect((await put(order.id, status)).statusCode).toBe(200);
    ids[name] = order.id;
  }
});
afterAll(() => h?.close());

describe('journey: their words', () => {
  it('the requests list, a request and an item show statuses in words and no enum capitals', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/order-requests?status=all');
    await page.getByRole('link', { name: 'Words received' }).waitFor();
    const list = await page.locator('main').innerText();
    expect(list).not.toMatch(CAPITALS);
    for (const word of ['Ordered', 'Received', 'Cancelled']) expect(list).toContain(word);

    await page.goto(`/app/order-requests/${ids.received}`);
    await page.getByTestId('order-history').getByText('received 2 into the inventory', { exact: false }).waitFor();
    expect(await page.getByTestId('order-status').innerText()).toBe('Received');
    expect(await page.locator('main').innerText()).not.toMatch(CAPITALS);

    await page.goto(`/app/inventory/items/${h.a.migratedLab.itemId}`);
    await page.getByTestId('instances-table').waitFor();
    expect(await page.locator('main').innerText()).not.toMatch(CAPITALS);
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('an error is a sentence; the request id waits behind Details', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/order-requests/${ids.ordered}`);
    await page.getByRole('button', { name: 'Mark backordered' }).waitFor();
    // Someone else cancels it meanwhile: the move the page offered is refused (409).
    expect(
      (await h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${ids.ordered}`, payload: { status: 'CANCELLED' } }))
        .statusCode,
    ).toBe(200);
    const refused = page.waitForResponse((r) => r.request().method() === 'PUT' && r.status() === 409);
    await page.getByRole('button', { name: 'Mark backordered' }).click();
    const requestId = (await (await refused).json()).request_id as string;
    const alert = page.getByRole('alert').filter({ hasText: 'Not changed' });
    const sentence = await alert.getByTestId('error-sentence').innerText();
    expect(sentence).toMatch(/^That move is not possible any more/);
    expect(sentence).toContain('Created');
    expect(sentence).not.toMatch(CAPITALS);
    expect(sentence).not.toContain('/order-requests');
    expect(sentence).not.toContain(requestId);
    expect(await alert.getByText(requestId).isVisible()).toBe(false);
    await alert.getByText('Details').click();
    await alert.getByText(requestId).waitFor();
    await context.close();
    expect(h.consoleErrors.filter((e) => !/status of 409/.test(e))).toEqual([]);
    h.consoleErrors.length = 0; // the refused move's load error, expected above
  });

  it("an item's history rows are sentences naming the person, the lot and the place", async () => {
    const item = (await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items/${h.a.migratedLab.itemId}` })).json();
    const instance = item.instances[0];
    const adjusted = await h.call(h.a.member.token, {
      method: 'POST',
      url: `/inventory-items/${item.id}/adjustments`,
      payload: { delta: '-0.02', instance_id: instance.id },
    });
    expect(adjusted.statusCode, adjusted.body).toBe(200);
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/inventory/items/${item.id}`);
    const row = page.getByTestId('history-table').getByTestId('history-entry').first();
    await row.getByText('Max MemberA used 0.02 of lot A1 in Room 101 / Freezer A / Shelf 2', { exact: false }).waitFor();
    expect(await row.innerText()).not.toMatch(/instance\.|_/);
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });
});
