import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

// Issue 22, item 13, in Chromium: the web app and the reference at /docs are served under the Content-Security-Policy
// of src/server/security-headers.ts and work under it: pages render, and the browser reports no violation (a
// `securitypolicyviolation` event, or a "Refused to …" console error).

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const PAGES = ['/app/inventory', '/app/order-requests', '/app/settings', '/app/shop', '/app/admin/members'];

describe('journey: the app and /docs under the Content-Security-Policy', () => {
  it('signs in, opens pages and the API reference, with the policy in force and no violation', async () => {
    const { page, context } = await h.newPage();
    // Collected in the page from its first script on (the test files are compiled without the DOM's types).
    await page.addInitScript({
      content:
        "window.violations = []; document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));",
    });
    const collected = async () => (await page.evaluate('window.violations')) as string[];
    const first = await page.goto('/app/');
    expect(first?.headers()['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    await h.signIn(page, 'admin-A@example.org', '/app/inventory');
    const violations: string[] = [];
    for (const path of [...PAGES, `/app/inventory/items/${h.a.migratedLab.itemId}`]) {
      const res = await page.goto(path);
      expect(res?.headers()['content-security-policy'], path).toMatch(/script-src 'self'/);
      await page.getByTestId('signed-in-as').waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
      violations.push(...(await collected()));
    }
    const docs = await page.goto('/docs/');
    expect(docs?.headers()['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    await page.locator('.swagger-ui .info .title').waitFor();
    await page.waitForLoadState('networkidle');
    violations.push(...(await collected()));
    expect(violations).toEqual([]);
    expect(h.consoleErrors.filter((e) => /Content Security Policy|Refused to/.test(e))).toEqual([]);
    await context.close();
  });
});
