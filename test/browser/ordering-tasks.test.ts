import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRule } from '../helpers/approvals.js';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { createOrder, orderBody } from '../helpers/orders.js';

// Issue 23, "Tasks that are one step, as labs do them" (docs/ordering.md, "Ordering, receiving in parts"): a lab whose
// rule is `all`. The member's own request offers no Approve; the admin approves, marks it ordered with the PO,
// confirmation number and expected date in one dialog, receives 2 of 5 and then the rest, and the request links to
// its item, whose history tells of both receipts. Another request is rejected with a reason the requester reads.

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
  await setRule(h, h.a.admin.token, h.a.migratedLab.id, { rule: 'all' });
});
afterAll(() => h?.close());

const get = async (url: string): Promise<any> => (await h.call(h.a.admin.token, { method: 'GET', url })).json();

describe('journey: ordering tasks', () => {
  it('own request: no Approve; then approved, marked ordered in one dialog, received in two parts, linked to its item', async () => {
    const order = await createOrder(
      h,
      h.a.member.token,
      orderBody(h.a.migratedLab, { name: 'Anti-Actin', vendor_name: 'Abcam', catalog_number: 'ab8227', quantity: 5 }),
    );
    const member = await h.newPage();
    await h.signIn(member.page, 'member-A@example.org', `/app/order-requests/${order.id}`);
    await member.page.getByTestId('approval-note').waitFor();
    expect(await member.page.getByTestId('order-status').innerText()).toBe('Created');
    expect(await member.page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await member.page.getByRole('button', { name: 'Reject' }).count()).toBe(0);
    expect(await member.page.getByRole('button', { name: 'Mark ordered' }).isDisabled()).toBe(true);
    await member.context.close();

    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', `/app/order-requests/${order.id}`);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('order-status').getByText('Approved').waitFor();

    // One dialog: PO, confirmation number and expected date; a double-click orders once.
    await page.getByRole('button', { name: 'Mark ordered…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mark ordered' });
    await dialog.getByRole('textbox', { name: 'PO number' }).fill('PO-2026-1142');
    await dialog.getByRole('textbox', { name: 'Confirmation number' }).fill('CN-889');
    await dialog.getByLabel('Expected delivery').fill('2026-12-24');
    await expectNoSeriousAxeViolations(page);
    await dialog.getByRole('button', { name: 'Mark ordered', exact: true }).dblclick();
    await page.getByTestId('order-status').getByText('Ordered').waitFor();
    expect(await get(`/order-requests/${order.id}`)).toMatchObject({
      status: 'ORDERED',
      purchase_order_number: 'PO-2026-1142',
      confirmation_number: 'CN-889',
    });
    expect((await get(`/order-requests/${order.id}/delivery`)).expected_delivery_date).toBe('2026-12-24');
    const types = (await get(`/order-requests/${order.id}/history`)).map((e: any) => e.type);
    expect(types).toEqual(['CREATED', 'APPROVED', 'UPDATED', 'ORDERED']);
    const history = page.getByTestId('order-history');
    await history.getByText('Ada AdminA set the PO number to PO-2026-1142', { exact: false }).waitFor();
    await page.getByTestId('delivery').getByText('Expected on').waitFor();

    // Receive 2 of 5: the request stays Ordered, saying what is still to come.
    await page.getByRole('button', { name: 'Receive…' }).click();
    const quantity = page.getByRole('textbox', { name: 'How many arrived' });
    expect(await quantity.inputValue()).toBe('5');
    await quantity.fill('2');
    await page.getByLabel('Lot number').fill('GR3323');
    await page.getByRole('combobox', { name: 'Location' }).click();
    await page.getByRole('option', { name: 'Room 101 / Freezer A', exact: true }).click();
    // Double-clicked: received once (a second receipt would read "4 of 5").
    await page.getByRole('button', { name: 'Receive', exact: true }).dblclick();
    await page.getByTestId('delivery').getByText('2 of 5 received; 3 still to come').waitFor();
    expect(await get(`/order-requests/${order.id}/delivery`)).toMatchObject({ received_quantity: '2' });
    expect(await page.getByTestId('order-status').innerText()).toBe('Ordered');
    await history.getByText('Ada AdminA received 2 of lot GR3323 into Room 101 / Freezer A').waitFor();

    // The rest: Received, and the request links to the item. On a phone the form opens in view.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Receive…' }).click();
    for (const named of [page.getByRole('textbox', { name: 'How many arrived' }), page.getByLabel('Lot number')]) {
      await named.waitFor();
      const box = (await named.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(844);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await page.getByRole('textbox', { name: 'How many arrived' }).inputValue()).toBe('3');
    await page.getByLabel('Lot number').fill('GR3324');
    await page.getByRole('combobox', { name: 'Location' }).click();
    await page.getByRole('option', { name: 'Room 101 / Freezer A / Shelf 2', exact: true }).click();
    await page.getByRole('button', { name: 'Receive', exact: true }).click();
    await page.getByTestId('order-status').getByText('Received').waitFor();
    await history.getByText('Ada AdminA received 3 of lot GR3324 into Room 101 / Freezer A / Shelf 2').waitFor();
    expect(await get(`/order-requests/${order.id}/delivery`)).toMatchObject({ received_quantity: '5', remaining_quantity: '0' });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await expect(page.getByTestId('received-item').isVisible()).resolves.toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByTestId('received-item').click();
    await page.waitForURL(/\/app\/inventory\/items\/[0-9a-f-]{36}$/);
    const itemHistory = page.getByTestId('history-table');
    await itemHistory.getByText('Ada AdminA received 3 of lot GR3324 into Room 101 / Freezer A / Shelf 2').waitFor();
    await itemHistory.getByText('Ada AdminA received 2 of lot GR3323 into Room 101 / Freezer A').waitFor();
    // And back: the receipt links to its request.
    await itemHistory.getByRole('link', { name: 'the order request' }).first().click();
    await page.waitForURL(`**/app/order-requests/${order.id}`);
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('a request is rejected with a reason, which the requester reads in its history', async () => {
    const order = await createOrder(h, h.a.member.token, orderBody(h.a.migratedLab, { name: 'Gold-plated pipette', quantity: 1 }));
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', `/app/order-requests/${order.id}`);
    await page.getByRole('button', { name: 'Reject…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject this request' });
    await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
    await dialog.getByText('Say why, so they know what to do next.').waitFor();
    await dialog.getByRole('textbox', { name: 'Why is it rejected?' }).fill('Too expensive: use the shared stock');
    await expectNoSeriousAxeViolations(page);
    // Double-clicked: rejected once (a second send would be refused, a console error, and a second history entry).
    await dialog.getByRole('button', { name: 'Reject', exact: true }).dblclick();
    await page.getByTestId('order-status').getByText('Cancelled').waitFor();
    await context.close();

    const member = await h.newPage();
    await h.signIn(member.page, 'member-A@example.org', `/app/order-requests/${order.id}`);
    await member.page.getByTestId('order-history').getByText('Ada AdminA rejected it: Too expensive: use the shared stock').waitFor();
    expect(await member.page.getByTestId('order-history').getByText('Ada AdminA rejected it').count()).toBe(1);
    expect((await get(`/order-requests/${order.id}`)).status).toBe('CANCELLED');
    await member.context.close();
    expect(h.consoleErrors).toEqual([]);
  });
});
