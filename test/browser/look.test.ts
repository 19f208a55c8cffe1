import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { createOrder, orderBody } from '../helpers/orders.js';

/** The page's getComputedStyle, typed here (the tests compile without the DOM's types). */
type Styled = { getComputedStyle(element: unknown): { textTransform: string } };

// Issue 23, "Look" (docs/web.md, Navigation and Brand): one active navigation entry, a title per page, a sign-in
// page without a console error or a failed request, precompressed assets, the location tree's counts, and
// "Connection lost — Retry" when the server cannot be reached.

let h: BrowserHarness;
let orderId: string;
beforeAll(async () => {
  h = await startBrowserHarness();
  orderId = (await createOrder(h, h.a.admin.token, orderBody(h.a.migratedLab))).id;
});
afterAll(() => h?.close());

/** The navigation's active entries: by the attribute Mantine styles and by the one assistive technology reads. */
const activeEntries = async (page: Page) => {
  const nav = page.getByRole('navigation', { name: 'Main' });
  return {
    styled: await nav.locator('a[data-active]').allInnerTexts(),
    current: await nav.locator('a[aria-current="page"]').allInnerTexts(),
  };
};

describe('the look of the application', () => {
  it('exactly one navigation entry is active on each page, and each page has its own title', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', '/app/');
    const pages: [string, string, string][] = [
      ['/app/', 'Home', 'Home · Labstock'],
      [`/app/inventory?lab=${h.a.migratedLab.id}`, 'Inventory', 'Inventory · Labstock'],
      [`/app/inventory/items/${h.a.migratedLab.itemId}`, 'Inventory', 'Item · Labstock'],
      ['/app/order-requests', 'Order requests', 'Order requests · Labstock'],
      ['/app/order-requests/awaiting-approval', 'Awaiting my approval', 'Awaiting my approval · Labstock'],
      [`/app/order-requests/${orderId}`, 'Order requests', 'Order request · Labstock'],
      ['/app/shop/orders', 'Shop', 'Shop orders · Labstock'],
      [`/app/labs/${h.a.migratedLab.id}/settings`, 'Your labs', 'Lab settings · Labstock'],
      ['/app/admin/labs', 'Labs', 'Labs · Labstock'],
      ['/app/settings', 'Settings', 'Settings · Labstock'],
    ];
    for (const [path, entry, title] of pages) {
      await page.goto(path);
      await page.getByRole('heading', { level: 2 }).first().waitFor();
      await expect.poll(() => page.title(), { message: path }).toBe(title);
      // Each entry's text is its label, and a badge's count after it.
      const active = await activeEntries(page);
      expect(
        active.styled.map((t) => t.split('\n')[0]),
        path,
      ).toEqual([entry]);
      expect(
        active.current.map((t) => t.split('\n')[0]),
        path,
      ).toEqual([entry]);
    }
    await page.goto('/app/no-such-page');
    await expect.poll(() => page.title()).toBe('Not found · Labstock');
    expect((await activeEntries(page)).styled).toEqual([]);
    await context.close();
  });

  it('the sign-in page loads without a console error or a failed request, its assets as brotli, with the favicon', async () => {
    const { page, context } = await h.newPage();
    const errors: string[] = [];
    const failed: string[] = [];
    const assets: { url: string; encoding: string | null }[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on('response', async (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
      if (r.url().includes('/app/assets/')) assets.push({ url: r.url(), encoding: await r.headerValue('content-encoding') });
    });
    await page.goto('/app/sign-in');
    await page.getByLabel('E-mail').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.title()).toBe('Sign in · Labstock');
    expect(errors).toEqual([]);
    expect(failed).toEqual([]);
    // Chromium accepts brotli from a trustworthy origin (127.0.0.1): every script and style came as brotli.
    expect(assets.length).toBeGreaterThan(0);
    expect(assets.filter((a) => a.encoding !== 'br')).toEqual([]);
    for (const icon of ['/app/favicon.svg', '/app/favicon.ico']) {
      const res = await page.request.get(icon);
      expect(res.status(), icon).toBe(200);
    }
    const links = await page.locator('link[rel="icon"]').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    expect(links).toEqual(['/app/favicon.ico', '/app/favicon.svg']);
    await context.close();
  });

  it('on a phone: the sign-in page shows the brand, the inventory of one lab offers its CSV import, badges keep the case of their words', async () => {
    const { page, context } = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const onScreen = async (locator: ReturnType<Page['getByTestId']>) => {
      const box = await locator.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      expect(box!.y + box!.height).toBeLessThanOrEqual(844);
    };
    await page.goto('/app/sign-in');
    const brand = page.getByTestId('sign-in-brand');
    await brand.waitFor();
    expect(await brand.innerText()).toBe('Labstock');
    expect(await brand.locator('svg').count()).toBe(1);
    await onScreen(brand);

    // Every lab at once: a file is imported into one lab, so there is nothing to offer.
    await h.signIn(page, 'admin-A@example.org', '/app/inventory');
    await page.getByTestId('items-total').waitFor();
    expect(await page.getByRole('combobox', { name: 'Lab' }).inputValue()).toBe('All my labs');
    const importLink = page.getByRole('link', { name: 'Import from CSV' });
    expect(await importLink.count()).toBe(0);
    await page.goto(`/app/inventory?lab=${h.a.migratedLab.id}`);
    await importLink.waitFor();
    expect(await importLink.getAttribute('href')).toBe(`/app/labs/${h.a.migratedLab.id}/import`);
    await onScreen(importLink);
    await importLink.click();
    await page.getByRole('heading', { name: /^Import into / }).waitFor();

    // Badges in words as written ("Uses instances", "Legacy"), not Mantine's capitals.
    await page.goto('/app/lab-migration');
    await page.getByTestId('labs-table').getByText('Uses instances', { exact: true }).first().waitFor();
    const transforms = await page
      .locator('.mantine-Badge-root')
      .evaluateAll((els) => els.map((e) => (globalThis as unknown as Styled).getComputedStyle(e).textTransform));
    expect(transforms.length).toBeGreaterThan(0);
    expect(transforms.filter((t) => t !== 'none')).toEqual([]);
    await context.close();
  });

  it('the location tree shows how many items each location holds, as the API counts them', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/locations?lab=${h.a.migratedLab.id}`);
    await page.getByTestId('location-tree').waitFor();
    const [room, freezer, shelf] = h.a.migratedLab.locationIds;
    for (const [path, id] of [
      ['Room 101', room],
      ['Room 101 / Freezer A', freezer],
      ['Room 101 / Freezer A / Shelf 2', shelf],
    ] as const) {
      const res = await h.call(h.a.member.token, {
        method: 'GET',
        url: `/inventory-items?lab_id=${h.a.migratedLab.id}&location_id=${id}&per_page=1`,
      });
      const n = res.headers['x-total-count'];
      expect(n).toBe('1');
      const badge = page.locator(`[data-testid="location-row"][data-path="${path}"]`).getByTestId('location-count');
      await expect.poll(() => badge.innerText()).toBe(n);
      expect(await badge.getAttribute('aria-label')).toBe(`1 item in ${path} and below`);
    }
    await context.close();
  });

  it('a list that cannot be loaded says "Connection lost" and loads after Retry', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/');
    await page.getByTestId('need-approvals').waitFor();
    // The server cannot be reached for the inventory's list (the requests fail as a dropped connection does).
    await page.route('**/inventory-items?**', (route) => route.abort('connectionrefused'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inventory' }).click();
    const banner = page.getByTestId('connection-lost');
    await banner.waitFor({ timeout: 15_000 });
    expect(await banner.innerText()).toContain('Connection lost');
    await page.unroute('**/inventory-items?**');
    await banner.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('items-table').waitFor();
    await banner.waitFor({ state: 'detached' });
    await context.close();
  });
});
