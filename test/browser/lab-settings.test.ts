import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { createOrder, orderBody } from '../helpers/orders.js';

// Lab settings (issue 13 × 14, docs/web.md): the org admin makes a member the lab's manager; the manager sets the
// approval rule, a spend tracking code with a budget and the over-budget setting; an order with the code shows in its
// spend; an approver is not allowed; another organization's lab is not found.

let h: BrowserHarness;
let labId: string;
const settingsPath = () => `/app/labs/${labId}/settings`;
beforeAll(async () => {
  h = await startBrowserHarness();
  labId = h.a.legacyLab.id;
});
afterAll(() => h?.close());

const get = async (url: string) => (await h.call(h.a.admin.token, { method: 'GET', url })).json();
const codeRow = (page: Page, name: string) => page.getByTestId(`spend-code-${name}`);

describe('journey: a lab manager sets approvals, spend codes and budgets', () => {
  it('the org admin opens the lab from the admin Labs page and makes the member a manager', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', '/app/admin/labs');
    await page.getByRole('link', { name: 'Settings of Legacy lab A' }).click();
    await page.waitForURL(`**${settingsPath()}`);
    await page.getByRole('combobox', { name: 'Role of Max MemberA' }).click();
    await page.getByRole('option', { name: 'Manager' }).click();
    await expect.poll(async () => (await get(`/organization/labs/${labId}/members`)).map((m: any) => m.role)).toEqual(['manager']);
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('the manager sets the rule, a budgeted code and block; an ordered request counts in the code’s spend', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/inventory');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Your labs' }).click();
    await page.getByRole('link', { name: 'Settings of Legacy lab A' }).click();
    await page.waitForURL(`**${settingsPath()}`);
    // Another lab the member belongs to but does not manage offers no settings.
    await page.goBack();
    await page.getByTestId('my-labs-table').getByText('Migrated lab A').waitFor();
    expect(await page.getByRole('link', { name: 'Settings of Migrated lab A' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Settings of Legacy lab A' }).click();

    await page.getByRole('radio', { name: 'Those above an amount' }).check();
    await page.getByRole('textbox', { name: /^Amount/ }).fill('500');
    await page.getByRole('textbox', { name: /^Currency/ }).fill('USD');
    await page.getByRole('button', { name: 'Save approval rule' }).click();
    await page.getByTestId('approval-rule').getByText('above $500.00').waitFor();
    expect(await get(`/labs/${labId}/approval-settings`)).toMatchObject({ rule: 'above', threshold: { amount: '50000', currency: 'USD' } });

    await page.getByRole('textbox', { name: "New code's name" }).fill('GRANT-7');
    await page.getByRole('textbox', { name: 'Budget per period' }).fill('1000');
    await page.getByRole('button', { name: 'Create code' }).click();
    await codeRow(page, 'GRANT-7').getByText('$1,000.00').first().waitFor();
    expect(await codeRow(page, 'GRANT-7').innerText()).toContain('Month');

    await page.getByRole('radio', { name: /^Block/ }).check();
    await page.getByRole('button', { name: 'Save over-budget setting' }).click();
    await page.getByTestId('over-budget-setting').getByText('is refused').waitFor();
    expect(await get(`/labs/${labId}/spend-settings`)).toEqual({ over_budget: 'block' });

    // 2 × 100.00 USD: below the 500.00 threshold, so it may be ordered without approval, and within the budget.
    const order = await createOrder(h, h.a.member.token, {
      ...orderBody(h.a.legacyLab, { price: { amount: '100.00', currency: 'USD' }, quantity: 2 }),
      spend_tracking_code: { name: 'GRANT-7' },
    });
    const ordered = await h.call(h.a.member.token, { method: 'PUT', url: `/order-requests/${order.id}`, payload: { status: 'ORDERED' } });
    expect(ordered.statusCode, ordered.body).toBe(200);
    await page.reload();
    await expect.poll(() => codeRow(page, 'GRANT-7').getByTestId('spent').innerText()).toBe('$200.00');
    expect(await codeRow(page, 'GRANT-7').getByTestId('remaining').innerText()).toBe('$800.00');

    // Another date: a month long before the order spent nothing.
    await page.getByLabel('Spend in the period that contains').fill('2020-01-15');
    await codeRow(page, 'GRANT-7').getByText('2020-01-01 to 2020-01-31').waitFor();
    expect(await codeRow(page, 'GRANT-7').getByTestId('spent').innerText()).toBe('Nothing');
    await page.getByRole('button', { name: 'Today' }).click();

    // The period and the budget change; the name stays.
    await page.getByRole('button', { name: 'Edit GRANT-7' }).click();
    await page.getByRole('form', { name: 'Edit GRANT-7' }).getByRole('combobox', { name: 'Period' }).click();
    await page.getByRole('option', { name: 'Quarter' }).click();
    await page.getByRole('button', { name: 'Save GRANT-7' }).click();
    await codeRow(page, 'GRANT-7').getByText('Quarter').waitFor();
    expect(await codeRow(page, 'GRANT-7').getByTestId('spent').innerText()).toBe('$200.00');

    await expectNoSeriousAxeViolations(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await page.goto('/app/labs');
    await page.getByTestId('my-labs-table').waitFor();
    await expectNoSeriousAxeViolations(page);
    await expectNoSidewaysScroll(page);

    // Another organization's lab: the API's 404, and nothing of it.
    await page.goto(`/app/labs/${h.b.legacyLab.id}/settings`);
    await page.getByTestId('not-found').waitFor();
    expect(await page.content()).not.toContain('Legacy lab B');
    await context.close();
    expect(h.consoleErrors.filter((e) => !/status of 404/.test(e))).toEqual([]);
  });

  it('an approver of the lab sees Not allowed, and the server refuses the change', async () => {
    const added = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/organization/labs/${labId}/members`,
      payload: { user_id: h.a.outsider.id, role: 'approver' },
    });
    expect(added.statusCode, added.body).toBe(201);
    const { page, context } = await h.newPage();
    await h.signIn(page, 'outsider-A@example.org', settingsPath());
    await page.getByTestId('not-allowed').waitFor();
    expect(await page.getByRole('button', { name: 'Save approval rule' }).count()).toBe(0);
    const refused = await h.call(h.a.outsider.token, {
      method: 'PUT',
      url: `/labs/${labId}/approval-settings`,
      payload: { rule: 'none' },
    });
    expect(refused.statusCode).toBe(403);
    await context.close();
  });
});
