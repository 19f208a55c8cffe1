import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { expectError } from '../helpers/errors.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const ADMIN_PAGES = ['/app/admin/members', '/app/admin/labs', '/app/admin/sso'];

describe("journey: a member cannot reach the organization's administration", () => {
  it('no admin navigation; each admin address shows "Not allowed", asks the API nothing and shows no data; the API refuses', async () => {
    const { page, context } = await h.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/organization/')) asked.push(request.url());
    });
    await h.signIn(page, 'member-A@example.org', '/app/inventory');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Settings' }).waitFor();
    for (const name of ['Members', 'Labs', 'Single sign-on', 'Organization'])
      expect(await nav.getByText(name, { exact: true }).count(), name).toBe(0);

    for (const path of ADMIN_PAGES) {
      await page.goto(path);
      await page.getByTestId('not-allowed').waitFor();
      expect(await page.getByRole('heading', { name: 'Not allowed' }).count()).toBe(1);
      const html = await page.content();
      for (const other of ['admin-a@example.org', 'outsider-a@example.org', 'Invite someone', 'Create lab', 'Client secret']) {
        expect(html, `${path}: ${other}`).not.toContain(other);
      }
    }
    await expectNoSeriousAxeViolations(page);
    expect(asked).toEqual([]);
    await context.close();

    for (const url of ['/organization/users', '/organization/labs', '/organization/sso']) {
      expectError(await h.call(h.a.member.token, { method: 'GET', url }), 403, 'forbidden');
    }
    expectError(
      await h.call(h.a.member.token, { method: 'POST', url: '/organization/users', payload: { email: 'sneaky@example.org' } }),
      403,
      'forbidden',
    );
    expect(h.consoleErrors).toEqual([]);
  });

  it("an org admin's pages show their own organization only", async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-B@example.org', '/app/admin/members');
    const members = page.getByTestId('members-table');
    await members.getByText('member-b@example.org').waitFor();
    expect(await members.getByRole('row').count()).toBe(1 + 3);
    for (const email of ['admin-a@example.org', 'member-a@example.org', 'outsider-a@example.org']) {
      expect(await page.content()).not.toContain(email);
    }
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Labs', exact: true }).click();
    const labs = page.getByTestId('labs-table');
    for (const name of ['Legacy lab B', 'Migrated lab B', 'Other lab B']) await labs.getByText(name, { exact: true }).waitFor();
    expect(await labs.getByRole('row').count()).toBe(1 + 3);
    expect(await page.content()).not.toMatch(/lab A</);
    await context.close();
  });
});
