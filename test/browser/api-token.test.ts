import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

describe('journey: create a token in the settings and use it with the API', () => {
  it('the token is shown once, works over real HTTP as its person, shows when it was used, and stops after revoking', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/settings');
    await page.getByLabel("New token's name").fill('ELN sync');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByTestId('new-token').innerText()).trim();
    expect(token.length).toBeGreaterThan(20);

    const me = await fetch(`${h.origin}/user`, { headers: { 'Access-Token': token } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe('member-a@example.org');

    await page.reload();
    const row = page.getByTestId('tokens-table').getByRole('row', { name: /ELN sync/ });
    expect(await row.getByRole('cell').nth(2).innerText(), 'last used').not.toBe('never');
    expect(await page.content()).not.toContain(token);

    await row.getByRole('button', { name: 'Revoke ELN sync' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await fetch(`${h.origin}/user`, { headers: { 'Access-Token': token } })).status).toBe(401);
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('turns the daily digest off', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', '/app/settings');
    const toggle = page.getByRole('switch', { name: /daily e-mail/ });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click({ force: true });
    await expect
      .poll(async () => (await h.call(h.a.admin.token, { method: 'GET', url: '/user/notifications' })).json().email_digest)
      .toBe(false);
    await context.close();
  });
});
