import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { startDns, type TestDns } from '../helpers/dns.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';

let h: BrowserHarness;
let smtp: TestSmtp;
let dns: TestDns;
beforeAll(async () => {
  smtp = await startSmtp();
  dns = await startDns();
  h = await startBrowserHarness({ SMTP_URL: smtp.url, MAIL_FROM: 'Labstock <labstock@lab.example>', SSO_DNS_SERVERS: dns.server });
});
afterAll(async () => {
  await h?.close();
  await smtp?.close();
  await dns?.close();
});

const LINA_PASSWORD = 'centrifuge-at-four-degrees';

describe('journey: an org admin invites a person, changes a role, creates a lab and sets up single sign-on', () => {
  it('the invitation is mailed, accepted, and the member appears; the role and the lab change through the pages', async () => {
    const admin = await h.newPage();
    const page = admin.page;
    await h.signIn(page, 'admin-A@example.org', '/app/admin/members');
    await page.getByTestId('members-table').waitFor();
    await expectNoSeriousAxeViolations(page);

    const invite = page.getByRole('form', { name: 'Invite someone' });
    await invite.getByRole('textbox', { name: 'E-mail' }).fill('lina@lab.example');
    await invite.getByRole('button', { name: 'Invite' }).click();
    const notice = page.getByTestId('issued-link');
    await notice.getByText('It was e-mailed to them.').waitFor();
    const shown = (await notice.locator('code').innerText()).trim();
    // Until she accepts, the table says she is invited and until when (the link's 7 days).
    const pending = page.getByTestId('members-table').getByRole('row', { name: /lina@lab\.example/ });
    const until = (await h.call(h.a.admin.token, { method: 'GET', url: '/organization/users?per_page=100' }))
      .json()
      .find((u: { email: string }) => u.email === 'lina@lab.example').invitation_expires_at;
    await pending.getByText(/^Invited, until /).waitFor();
    // Not joined yet: a new invitation can be sent.
    await pending.getByRole('button', { name: 'New invitation link for lina@lab.example' }).waitFor();
    expect(await pending.getByText(/^Invited, until /).innerText()).toBe(
      `Invited, until ${await page.evaluate((at) => new Date(at).toLocaleDateString(), until)}`,
    );

    const [mail] = await smtp.waitFor(1);
    expect(mail!.to).toEqual(['lina@lab.example']);
    const mailed = mail!.text.match(/https?:\/\/\S+\/app\/invitations\/[\w-]+/)?.[0];
    expect(mailed).toBe(shown);

    const invited = await h.newPage();
    await invited.page.goto(mailed!);
    await invited.page.getByLabel('First name').fill('Lina');
    await invited.page.getByLabel('Last name').fill('Larsen');
    await invited.page.getByRole('textbox', { name: 'Password' }).fill(LINA_PASSWORD);
    await invited.page.getByRole('button', { name: 'Join and sign in' }).click();
    await invited.page.getByTestId('signed-in-as').waitFor();
    // A member has no organization navigation.
    expect(await invited.page.getByRole('link', { name: 'Members' }).count()).toBe(0);

    await page.reload();
    const row = page.getByTestId('members-table').getByRole('row', { name: /Lina Larsen/ });
    await row.waitFor();
    expect(await row.innerText()).toContain('lina@lab.example');
    // Joined: active, no longer invited.
    await row.getByText('Active', { exact: true }).waitFor();
    expect(await row.getByText(/Invited/).count()).toBe(0);
    // She can sign in: nothing to resend (issue 23), and the admin's own row has no Deactivate.
    expect(await row.getByRole('button', { name: /^New invitation link for / }).count()).toBe(0);
    expect(await page.getByTestId('members-table').getByRole('button', { name: 'Deactivate Ada AdminA' }).count()).toBe(0);
    await row.getByRole('button', { name: 'Deactivate Lina Larsen' }).waitFor();
    const role = row.getByRole('combobox', { name: 'Role of Lina Larsen' });
    expect(await role.inputValue()).toBe('Member');
    await role.click();
    await page.getByRole('option', { name: 'Admin' }).click();
    await expect.poll(async () => (await role.inputValue()) === 'Admin').toBe(true);
    const users = (await h.call(h.a.admin.token, { method: 'GET', url: '/organization/users?per_page=100' })).json();
    expect(users.find((u: { email: string }) => u.email === 'lina@lab.example')).toMatchObject({ role: 'admin', deactivated_at: null });

    // The organization's navigation leads to the labs.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Labs', exact: true }).click();
    await page.getByTestId('labs-table').waitFor();
    await page.getByRole('textbox', { name: "New lab's name" }).fill('Cell culture');
    await page.getByRole('button', { name: 'Create lab' }).click();
    const lab = page.getByTestId('labs-table').getByRole('row', { name: /Cell culture/ });
    await lab.waitFor();
    await lab.getByRole('button', { name: 'Members of Cell culture' }).click();
    await page.getByRole('combobox', { name: 'Add a person to Cell culture' }).click();
    await page.getByRole('option', { name: /Lina Larsen/ }).click();
    await page.getByRole('button', { name: 'Add to lab' }).click();
    await page.getByRole('button', { name: 'Remove Lina Larsen from Cell culture' }).waitFor();
    await expectNoSeriousAxeViolations(page);

    const labs = (await h.call(h.a.admin.token, { method: 'GET', url: '/organization/labs?per_page=100' })).json();
    const created = labs.find((l: { name: string }) => l.name === 'Cell culture');
    expect(created).toMatchObject({ uses_instances: true, archived_at: null });
    const members = (await h.call(h.a.admin.token, { method: 'GET', url: `/organization/labs/${created.id}/members` })).json();
    expect(members.map((m: { email: string }) => m.email)).toEqual(['lina@lab.example']);

    await lab.getByRole('button', { name: 'Archive Cell culture' }).click();
    await lab.getByText('Archived').waitFor();
    await invited.context.close();
    await admin.context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('single sign-on: the form shows the server refusing a domain, saves, and never shows the secret again', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', '/app/admin/sso');
    const form = page.getByRole('form', { name: 'Single sign-on settings' });
    await form.getByRole('textbox', { name: 'Issuer URL' }).fill('https://login.lab.example/realms/lab');
    await form.getByRole('textbox', { name: 'Client ID' }).fill('labstock');
    await form.getByLabel('Client secret').fill('the-provider-secret-0451');
    await form.getByRole('textbox', { name: 'Allowed e-mail domains' }).fill('Lab.example, not a domain!');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('is not a domain such as lab.example.org').waitFor();
    await expectNoSeriousAxeViolations(page);

    await form.getByRole('textbox', { name: 'Allowed e-mail domains' }).fill('Lab.example');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('sso-saved').waitFor();
    const saved = (await h.call(h.a.admin.token, { method: 'GET', url: '/organization/sso' })).json();
    expect(saved).toMatchObject({ issuer: 'https://login.lab.example/realms/lab', client_id: 'labstock', client_secret_set: true });
    expect(saved.allowed_domains).toEqual(['lab.example']);

    await page.reload();
    await form.getByText('A secret is stored and never shown').waitFor();
    expect(await form.getByLabel('Client secret').inputValue()).toBe('');
    expect(await page.content()).not.toContain('the-provider-secret-0451');

    // The domain waits for its DNS record: the page shows the record to publish, and checks it when asked.
    const card = page.getByTestId('sso-domain-lab.example');
    await card.getByText('Waiting for its DNS record').waitFor();
    const [claim] = (await h.call(h.a.admin.token, { method: 'GET', url: '/organization/sso/domains' })).json();
    await card.getByText(claim.txt_value).waitFor();
    await card.getByRole('button', { name: 'Check lab.example now' }).click();
    await card.getByText('No TXT record').waitFor();
    dns.txt(claim.txt_name, claim.txt_value);
    await card.getByRole('button', { name: 'Check lab.example now' }).click();
    await card.getByText('Proved by its DNS record').waitFor();
    await expectNoSeriousAxeViolations(page);
    const after = (await h.call(h.a.admin.token, { method: 'GET', url: '/organization/sso/domains' })).json();
    expect(after).toMatchObject([{ domain: 'lab.example', status: 'verified', verified_by: 'dns' }]);
    await context.close();
    expect(h.consoleErrors.filter((e) => !/status of (404|422)/.test(e))).toEqual([]);
  });
});
