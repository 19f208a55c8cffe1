import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { createOrder, orderBody } from '../helpers/orders.js';

// Every page of the application, checked by axe-core (no serious or critical WCAG 2.1 A/AA violation) at a desktop
// width and at a phone's 390 px, where nothing may make the page scroll sideways (issue 13's quality bar). Pages
// added later are checked by their own journeys with the same helpers (test/helpers/axe.ts).

let h: BrowserHarness;
let orderId: string;
beforeAll(async () => {
  h = await startBrowserHarness();
  orderId = (await createOrder(h, h.a.member.token, orderBody(h.a.migratedLab))).id;
});
afterAll(() => h?.close());

// [name, path, what shows the page has loaded: a test id, else its first level-2 heading]; the paths are read once
// the harness exists.
const signedIn: [string, () => string, string | null][] = [
  // A table on a desktop, cards on a phone: the count below them shows on both.
  ['home', () => '/app/', 'need-approvals'],
  ['inventory', () => '/app/inventory', 'items-total'],
  ['item', () => `/app/inventory/items/${h.a.migratedLab.itemId}`, 'instances-table'],
  ['legacy item', () => `/app/inventory/items/${h.a.legacyLab.itemId}`, 'item-name'],
  ['order requests', () => '/app/order-requests', 'orders-table'],
  ['new order request', () => '/app/order-requests/new', null],
  ['order request', () => `/app/order-requests/${orderId}`, 'order-status'],
  ['settings', () => '/app/settings', 'tokens-table'],
  ['new item', () => `/app/inventory/items/new?lab=${h.a.migratedLab.id}`, null],
  ['locations', () => `/app/locations?lab=${h.a.migratedLab.id}`, 'location-row'],
  ['location', () => `/app/locations/${h.a.migratedLab.locationIds[0]}?lab=${h.a.migratedLab.id}`, 'control-area'],
  // A heading only: whether anything waits to be put away depends on the journeys' data, not on this page.
  ['put away', () => '/app/put-away', null],
  ['types', () => `/app/types?lab=${h.a.migratedLab.id}`, 'types'],
  ['import', () => `/app/labs/${h.a.migratedLab.id}/import`, null],
  ['lab migration', () => '/app/lab-migration', 'labs-table'],
  ['shop', () => '/app/shop', null],
  ['shop checkout', () => '/app/shop/checkout', null],
  ['shop orders', () => '/app/shop/orders', null],
  ['shop fulfilment', () => '/app/shop/fulfilment', null],
  ['webhooks', () => '/app/webhooks', null],
  ['members', () => '/app/admin/members', 'members-table'],
  ['labs', () => '/app/admin/labs', 'labs-table'],
  ['single sign-on', () => '/app/admin/sso', null],
  ['not found', () => '/app/no-such-page', null],
];

// One test per page (a slow page on a loaded machine times out alone); per width one signed-out and one signed-in
// page, each opening every address afresh as before.
describe.each([
  ['desktop', 1280, 800],
  ['phone', 390, 844],
])('every page on a %s (%i px)', (_name, width, height) => {
  describe('signed out', () => {
    let page: Page;
    beforeAll(async () => {
      ({ page } = await h.newPage());
      await page.setViewportSize({ width, height });
    });
    afterAll(() => page?.context().close());

    it.each(['/app/sign-in', '/app/password-reset'])('%s', async (path) => {
      await page.goto(path);
      await page.getByRole('heading').first().waitFor();
      await expectNoSeriousAxeViolations(page);
      await expectNoSidewaysScroll(page);
    });
  });

  describe('signed in', () => {
    let page: Page;
    beforeAll(async () => {
      ({ page } = await h.newPage());
      await page.setViewportSize({ width, height });
      await h.signIn(page, 'admin-A@example.org');
    });
    afterAll(() => page?.context().close());

    it.each(signedIn)('%s', async (_page, path, testId) => {
      await page.goto(path());
      if (testId) await page.getByTestId(testId).first().waitFor();
      else await page.getByRole('heading', { level: 2 }).first().waitFor();
      await expectNoSeriousAxeViolations(page);
      await expectNoSidewaysScroll(page);
    });
  });
});
