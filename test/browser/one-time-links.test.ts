import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const NEW_PASSWORD = 'a-new-password-for-the-lab';

describe('journey: invited, then a forgotten password', () => {
  it('an invited person sets a name and password from the link, is signed in, creates a token and uses it; the link works once', async () => {
    const invite = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/organization/users',
      payload: { email: 'newcomer@example.org', role: 'member' },
    });
    expect(invite.statusCode, invite.body).toBe(201);
    const link = invite.json().invitation.url as string;
    expect(link.startsWith(`${h.origin}/app/invitations/`)).toBe(true);

    const { page, context } = await h.newPage();
    await page.goto(link);
    await page.getByText('You were invited as newcomer@example.org').waitFor();
    await page.getByLabel('First name').fill('Nora');
    await page.getByLabel('Last name').fill('Newcomer');
    await page.getByRole('textbox', { name: 'Password' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Join and sign in' }).click();
    await page.getByTestId('signed-in-as').waitFor();
    expect(await page.getByTestId('signed-in-as').innerText()).toContain('Nora Newcomer');

    await page.goto('/app/settings');
    await page.getByLabel("New token's name").fill('curl');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByTestId('new-token').innerText()).trim();
    const me = await fetch(`${h.origin}/user`, { headers: { 'Access-Token': token } });
    expect(((await me.json()) as { email: string }).email).toBe('newcomer@example.org');
    await context.close();

    const again = await h.newPage();
    await again.page.goto(link);
    await again.page.getByTestId('link-invalid').waitFor();
    await again.context.close();
    expect(h.consoleErrors.filter((e) => !/status of 404/.test(e))).toEqual([]);
  });

  it('a reset link sets a new password; the old one stops working and the new one signs in', async () => {
    const issued = await h.call(h.a.admin.token, { method: 'POST', url: `/organization/users/${h.a.member.id}/password-reset` });
    expect(issued.statusCode, issued.body).toBe(201);
    const link = issued.json().url as string;

    const { page, context } = await h.newPage();
    await page.goto(link);
    await page.getByRole('textbox', { name: 'New password' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByTestId('reset-done').waitFor();

    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail').fill('member-A@example.org');
    await page.getByRole('textbox', { name: 'Password' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('signed-in-as').waitFor();
    await context.close();
    const signIn = (password: string) =>
      h.app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        headers: { origin: h.origin },
        payload: { email: 'member-A@example.org', password },
      });
    expect((await signIn('journey-password-of-length')).statusCode).toBe(401);
    expect((await signIn(NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('"Forgot your password?" answers the same for any address', async () => {
    const { page, context } = await h.newPage();
    await page.goto('/app/sign-in');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    // The sign-in page has an E-mail field too: wait for the next page (its chunk loads first) before typing.
    await page.getByRole('button', { name: 'Send me a link' }).waitFor();
    await page.getByLabel('E-mail').fill('nobody@example.org');
    await page.getByRole('button', { name: 'Send me a link' }).click();
    expect(await page.getByTestId('reset-requested').innerText()).toContain('If nobody@example.org has an account');
    await context.close();
  });
});
