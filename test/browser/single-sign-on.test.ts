import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { startDns, type TestDns } from '../helpers/dns.js';
import { startOidc, type TestOidc } from '../helpers/oidc.js';

// Single sign-on in the browser: the sign-in page's button, the real test OpenID provider, back signed in.
let h: BrowserHarness;
let op: TestOidc;
let dns: TestDns;
beforeAll(async () => {
  dns = await startDns();
  h = await startBrowserHarness({ SSO_ALLOWED_CIDRS: '127.0.0.0/8', SSO_DNS_SERVERS: dns.server });
  op = await startOidc({ redirectUris: [`${h.origin}/auth/sso/callback`] });
  const res = await h.call(h.a.admin.token, {
    method: 'PUT',
    url: '/organization/sso',
    payload: {
      issuer: op.issuer,
      client_id: op.clientId,
      client_secret: op.clientSecret,
      allowed_domains: ['lab.example', 'example.org'],
      enabled: true,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  // The admin proves each domain with its TXT record (docs/auth.md, Single sign-on, Domains).
  const domains = (await h.call(h.a.admin.token, { method: 'GET', url: '/organization/sso/domains' })).json();
  expect(domains.map((d: { domain: string }) => d.domain).sort()).toEqual(['example.org', 'lab.example']);
  for (const domain of domains) {
    dns.txt(domain.txt_name, domain.txt_value);
    const verified = await h.call(h.a.admin.token, { method: 'POST', url: `/organization/sso/domains/${domain.domain}/verify` });
    expect(verified.statusCode, verified.body).toBe(200);
  }
});
afterAll(async () => {
  await op?.close();
  await h?.close();
  await dns?.close();
});

describe('journey: single sign-on', () => {
  it('a new person of an allowed domain signs in through the provider and lands on the page they asked for', async () => {
    op.signInAs = { sub: 'sso-journey-1', email: 'grace@lab.example', email_verified: true, given_name: 'Grace', family_name: 'Hopper' };
    const { page, context } = await h.newPage();
    await page.goto(`/app/inventory?lab=${h.a.legacyLab.id}`);
    await page.getByLabel('E-mail').fill('grace@lab.example');
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await page.getByTestId('signed-in-as').waitFor();
    expect(await page.getByTestId('signed-in-as').innerText()).toContain('Grace Hopper');
    expect(new URL(page.url()).pathname).toBe('/app/inventory');
    await context.close();
  });

  it('a refusal comes back to the sign-in page with the reason, signed out', async () => {
    op.signInAs = {
      sub: 'sso-journey-2',
      email: 'mallory@elsewhere.example',
      email_verified: true,
      given_name: 'Mal',
      family_name: 'Lory',
    };
    const { page, context } = await h.newPage();
    await page.goto('/app/sign-in');
    await page.getByLabel('E-mail').fill('mallory@lab.example');
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await page.getByText('Single sign-on failed').waitFor();
    expect(page.url()).toContain('error=sso_domain_not_allowed');
    expect(await page.getByRole('alert').innerText()).toContain('not one this organization lets in');
    await context.close();
  });

  it("another site's link to the start does not sign the browser in: back to the sign-in page, with the reason", async () => {
    // Login CSRF (issue 22, item 7): a page on another site (localhost is not the same site as 127.0.0.1).
    const start = `${h.origin}/auth/sso/start?organization=${h.a.orgId}`;
    const evil = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<a id="go" href="${start}">win</a>`),
    );
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    try {
      const { page, context } = await h.newPage();
      await page.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`);
      await page.click('#go');
      await page.getByText('Single sign-on failed').waitFor();
      expect(page.url()).toBe(`${h.origin}/app/sign-in?error=sso_start_cross_site`);
      expect(await page.getByRole('alert').innerText()).toContain('started only from this page');
      await context.close();
    } finally {
      evil.closeAllConnections();
      await new Promise<void>((resolve) => evil.close(() => resolve()));
    }
  });
});

describe('journey: linking single sign-on (issue 22)', () => {
  it('an existing member is refused by e-mail alone, links the provider in Settings, then signs in through it', async () => {
    op.signInAs = { sub: 'sso-link-1', email: 'member-a@example.org', email_verified: true, given_name: 'Max', family_name: 'MemberA' };
    const refused = await h.newPage();
    await refused.page.goto('/app/sign-in');
    await refused.page.getByLabel('E-mail').fill('member-a@example.org');
    await refused.page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await refused.page.getByText('Single sign-on failed').waitFor();
    expect(refused.page.url()).toContain('error=sso_account_not_linked');
    await refused.context.close();

    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/settings');
    // A double-click starts one flow: a second would replace the first's cookie and its answer would be refused.
    await page.getByRole('button', { name: 'Link single sign-on' }).dblclick();
    await page.getByText('Single sign-on is linked').waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/settings');
    await context.close();

    const again = await h.newPage();
    await again.page.goto('/app/sign-in');
    await again.page.getByLabel('E-mail').fill('member-a@example.org');
    await again.page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await again.page.getByTestId('signed-in-as').waitFor({ state: 'attached' });
    expect(await again.page.getByTestId('signed-in-as').innerText()).toContain('Max');
    await again.context.close();
  });
});
