import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

// Pickers search the server (issue 23; web/src/data/Pickers.tsx): with more labs than a picker shows, it offers the
// first matches, says how many more there are, and finds any lab by what the person types (GET /labs?q=), instead
// of loading every lab and filtering in the browser.

let h: BrowserHarness;
const LABS = 60;
beforeAll(async () => {
  h = await startBrowserHarness();
  for (let i = 1; i <= LABS; i++) {
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/organization/labs',
      payload: { name: `Picker lab ${String(i).padStart(2, '0')}`, uses_instances: true },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
}, 120_000);
afterAll(() => h?.close());

describe('journey: a lab picker over more labs than it shows', () => {
  it('says how many more there are and finds a lab past the first page by what is typed', async () => {
    const total = Number((await h.call(h.a.admin.token, { method: 'GET', url: '/labs?per_page=1' })).headers['x-total-count']);
    expect(total).toBeGreaterThan(LABS);
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', '/app/admin/members');
    const form = page.getByRole('form', { name: 'Invite someone' });
    await form.getByText(`${total - 50} more: type to narrow`).waitFor();
    const picker = form.getByRole('combobox', { name: 'Joins the lab' });
    await picker.click();
    await picker.fill('lab 59');
    await page.getByRole('option', { name: 'Picker lab 59' }).click();
    expect(await page.getByRole('option', { name: 'Picker lab 01' }).count()).toBe(0);
    await form.getByRole('textbox', { name: 'First name' }).fill('Grace');
    await form.getByRole('textbox', { name: 'Last name' }).fill('Hopper');
    await form.getByRole('button', { name: 'Invite Grace Hopper to Picker lab 59' }).waitFor();
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });
});
