import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../src/accounts/auth.js';
import { systemActor } from '../../src/shared/actor.js';
import { addMember, historyTypes, newPerson, setRule } from '../helpers/approvals.js';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, PASSWORD, startBrowserHarness } from '../helpers/browser.js';

// Issue 13 × 14 (docs/ordering.md): a lab whose rule is `all`; the requester asks in the application with a spend
// code and cannot order before an approver approves from their queue; then the details are edited.

let h: BrowserHarness;
let approverEmail: string;
beforeAll(async () => {
  h = await startBrowserHarness();
  const lab = h.a.legacyLab;
  const approver = await newPerson(h, h.a.orgId, 'Approver');
  const added = await addMember(h, h.a.admin.token, lab.id, approver.id, 'approver');
  expect(added.statusCode, added.body).toBe(201);
  await setPassword(h.deps.db, systemActor('cli'), approver.id, PASSWORD);
  approverEmail = (await h.call(approver.token, { method: 'GET', url: '/user' })).json().email;
  await setRule(h, h.a.admin.token, lab.id, { rule: 'all' });
  const code = await h.call(h.a.admin.token, {
    method: 'POST',
    url: `/labs/${lab.id}/spend-tracking-codes`,
    payload: { name: 'GRANT-42' },
  });
  expect(code.statusCode, code.body).toBe(201);
});
afterAll(() => h?.close());

describe('journey: a request that needs approval', () => {
  it('is requested with a spend code, approved from the queue by an approver, ordered, and its details edited', async () => {
    const requester = await h.newPage();
    const page = requester.page;
    await h.signIn(page, 'member-A@example.org', '/app/order-requests/new');
    await page.getByRole('combobox', { name: 'Lab' }).click();
    await page.getByRole('option', { name: 'Legacy lab A' }).click();
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Reagent' }).click();
    await page.getByRole('textbox', { name: 'Item' }).fill('Taq polymerase');
    await page.getByRole('textbox', { name: 'Vendor' }).fill('NEB');
    await page.getByRole('textbox', { name: 'Catalog number' }).fill('M0273S');
    await page.getByRole('textbox', { name: 'Quantity' }).fill('3');
    await page.getByRole('textbox', { name: 'Unit price' }).fill('80.00');
    await page.getByRole('combobox', { name: 'Spend tracking code' }).click();
    await page.getByRole('option', { name: 'GRANT-42' }).click();
    await page.getByRole('switch', { name: 'Urgent' }).check();
    await expectNoSeriousAxeViolations(page);
    await page.getByRole('button', { name: 'Request' }).click();

    await page.waitForURL(/\/app\/order-requests\/[0-9a-f-]{36}$/);
    const orderId = page.url().split('/').pop()!;
    await page.getByTestId('approval-note').waitFor();
    expect(await page.getByTestId('order-status').innerText()).toBe('Created');
    expect(await page.getByTestId('approval-note').innerText()).toContain('needs approval before it is ordered');
    // The requester never approves their own request, and cannot order it yet.
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Mark ordered' }).isDisabled()).toBe(true);
    const details = page.getByRole('region', { name: 'Details' });
    expect(await details.innerText()).toContain('GRANT-42');
    await page.getByTestId('order-urgent').waitFor();
    await expectNoSeriousAxeViolations(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The approver finds it in their queue and approves it there.
    const approver = await h.newPage();
    await h.signIn(approver.page, approverEmail, '/app/order-requests/awaiting-approval');
    const row = approver.page.getByRole('row').filter({ hasText: 'Taq polymerase' });
    await row.waitFor();
    await expectNoSeriousAxeViolations(approver.page);
    await row.getByRole('button', { name: 'Approve Taq polymerase' }).click();
    await approver.page.getByTestId('no-approvals').waitFor();
    await approver.context.close();

    // Back with the requester: approved, so it may be ordered.
    await page.reload();
    await page.getByTestId('order-status').getByText('Approved').waitFor();
    await page.getByRole('button', { name: 'Mark ordered…' }).click();
    await page.getByRole('dialog', { name: 'Mark ordered' }).getByRole('button', { name: 'Mark ordered', exact: true }).click();
    await page.getByTestId('order-status').getByText('Ordered').waitFor();

    // Details: a value over the server's limit is refused under its field; then saved, only what changed.
    await page.getByRole('button', { name: 'Edit details' }).click();
    await page.getByRole('textbox', { name: 'PO number' }).fill('P'.repeat(201));
    await page.getByRole('button', { name: 'Save details' }).click();
    const po = page.getByRole('textbox', { name: 'PO number' });
    await page.locator('input[aria-invalid="true"]').waitFor();
    expect(await po.getAttribute('aria-invalid')).toBe('true');
    const errorId = (await po.getAttribute('aria-describedby'))!.split(' ').find((id) => id.endsWith('-error'))!;
    expect(await page.locator(`[id="${errorId}"]`).innerText()).toMatch(/200/);
    await expectNoSeriousAxeViolations(page);
    await page.getByRole('textbox', { name: 'PO number' }).fill('PO-2026-77');
    await page.getByRole('textbox', { name: 'Tracking number' }).fill('1Z999AA10123456784');
    await page.getByRole('button', { name: 'Save details' }).click();
    await details.getByText('PO-2026-77').waitFor();
    expect(await details.innerText()).toContain('1Z999AA10123456784');

    const order = (await h.call(h.a.member.token, { method: 'GET', url: `/order-requests/${orderId}` })).json();
    expect(order).toMatchObject({
      status: 'ORDERED',
      is_urgent: true,
      spend_tracking_code: { name: 'GRANT-42' },
      purchase_order_number: 'PO-2026-77',
      tracking_number: '1Z999AA10123456784',
      notes: null,
    });
    // Urgent was set right after creating (one UPDATED), the edit is one more: only the two changed fields were sent.
    expect(await historyTypes(h, orderId)).toEqual(['CREATED', 'UPDATED', 'APPROVED', 'ORDERED', 'UPDATED']);
    const updates = await h.deps.db
      .selectFrom('order_request_events')
      .select('comment')
      .where('order_request_id', '=', orderId)
      .where('type', '=', 'UPDATED')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(updates.map((u) => u.comment)).toEqual([
      'is_urgent: false → true',
      'tracking_number: null → "1Z999AA10123456784"; purchase_order_number: null → "PO-2026-77"',
    ]);
    // The page's history (GET /order-requests/{id}/history), newest first, shows the same entries.
    const shown = requester.page.getByTestId('order-history');
    await shown.getByText('PO-2026-77', { exact: false }).waitFor();
    const rows = await shown.getByTestId('history-entry').allInnerTexts();
    expect(rows.map((r) => r.split('\n')[0]!.replace(/^(Max MemberA|Approver Person\d+) /, ''))).toEqual([
      'set the tracking number to 1Z999AA10123456784 and set the PO number to PO-2026-77',
      'marked it ordered',
      'approved it',
      'marked it urgent',
      'requested it',
    ]);
    await requester.context.close();
    expect(h.consoleErrors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });

  it('the queue is empty for someone who approves nothing', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/order-requests/awaiting-approval');
    await page.getByTestId('no-approvals').waitFor();
    await context.close();
  });
});
