import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations } from '../helpers/axe.js';
import { type BrowserHarness, PASSWORD, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const NEW_PASSWORD = 'pipettes-and-petri-dishes';

describe('journey: a person changes their name and their password in the settings', () => {
  it('the header shows the new name; the server refuses a wrong or weak password; the new password signs in after signing out', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/settings');
    const profile = page.getByRole('form', { name: 'Profile' });
    await profile.getByRole('textbox', { name: 'First name' }).waitFor();
    await expectNoSeriousAxeViolations(page);

    await profile.getByRole('textbox', { name: 'First name' }).fill('Maxine');
    await profile.getByRole('textbox', { name: 'Last name' }).fill('Mustermann');
    await profile.getByRole('button', { name: 'Save name' }).click();
    await page.getByTestId('profile-saved').waitFor();
    expect(await page.getByTestId('signed-in-as').innerText()).toContain('Maxine Mustermann');
    const me = (await h.call(h.a.member.token, { method: 'GET', url: '/user' })).json();
    expect(me).toMatchObject({ first_name: 'Maxine', last_name: 'Mustermann' });

    const password = page.getByRole('form', { name: 'Change password' });
    const current = password.getByRole('textbox', { name: 'Current password' });
    const next = password.getByRole('textbox', { name: 'New password' });
    await current.fill('not-my-password-at-all');
    await next.fill(NEW_PASSWORD);
    await password.getByRole('button', { name: 'Change password' }).click();
    // The server's message, under the field it names.
    await password.getByText('is wrong', { exact: true }).waitFor();

    await current.fill(PASSWORD);
    await next.fill('bbbbbbbbbbbbbbbb');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByText('must not be one character repeated').waitFor();
    expect(await password.getByText('is wrong', { exact: true }).count()).toBe(0);
    await expectNoSeriousAxeViolations(page);

    await next.fill(NEW_PASSWORD);
    await password.getByRole('button', { name: 'Change password' }).click();
    await page.getByTestId('password-changed').waitFor();
    expect(await current.inputValue()).toBe('');

    await page.getByRole('button', { name: 'Sign out' }).click();
    // The settings page (which has its own e-mail field) is gone once the sign-in button shows.
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await page.getByLabel('E-mail').fill('member-A@example.org');
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByTestId('signed-in-as').count()).toBe(0);

    await page.getByRole('textbox', { name: 'Password' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('signed-in-as').waitFor();
    expect(await page.getByTestId('signed-in-as').innerText()).toContain('Maxine Mustermann');
    await context.close();
    // A wrong sign-in and the refused password changes are 4xx loads Chromium logs; nothing else may be.
    expect(h.consoleErrors.filter((e) => !/status of (401|422)/.test(e))).toEqual([]);
  });
});
