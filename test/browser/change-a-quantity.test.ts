import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const itemOf = async (id: string) => (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${id}` })).json();

describe('journey: change a quantity and see it in the history', () => {
  it("a member sets an instance's exact quantity, adjusts it with a note, and both appear in the history", async () => {
    const id = h.a.migratedLab.itemId;
    const before = await itemOf(id);
    const instance = before.instances[0];
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/inventory/items/${id}`);
    await page.getByTestId('instances-table').waitFor();

    const field = page.getByRole('textbox', { name: `Quantity of lot ${instance.lot_number ?? 'without a lot number'}` });
    await field.fill('2.125');
    await page.getByTestId('instances-table').getByRole('button', { name: 'Save' }).first().click();
    await page.getByTestId('history-table').getByText('2.125').first().waitFor();
    expect((await itemOf(id)).instances.find((i: { id: string }) => i.id === instance.id).quantity).toBe('2.125');

    await page.getByLabel('Change by').fill('-0.125');
    await page.getByLabel('Note').fill('used for the western blot');
    await page.getByRole('button', { name: 'Adjust' }).click();
    await page.getByTestId('history-table').getByText('used for the western blot').waitFor();
    expect((await itemOf(id)).instances.find((i: { id: string }) => i.id === instance.id).quantity).toBe('2');
    const history = await page.getByTestId('history-table').innerText();
    expect(history).toContain('Max Member');
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('a stale edit is not saved over a newer one: the person sees the current value and saves again', async () => {
    const id = h.a.legacyLab.itemId;
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', `/app/inventory/items/${id}`);
    const field = page.getByRole('textbox', { name: 'Quantity', exact: true });
    await field.waitFor();
    // Someone else changes it through the API after the page was read.
    const other = await h.call(h.a.member.token, { method: 'PUT', url: `/inventory-items/${id}`, payload: { quantity: '41' } });
    expect(other.statusCode, other.body).toBe(200);

    await field.fill('7');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Changed by someone else').waitFor();
    expect((await itemOf(id)).quantity).toBe('41');
    await page.getByRole('button', { name: 'Show the current values' }).click();
    await page.getByRole('textbox', { name: 'Quantity', exact: true }).fill('7');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('history-table').getByText('41 → 7', { exact: false }).first().waitFor();
    expect((await itemOf(id)).quantity).toBe('7');
    await context.close();
  });
});
