// `npm run build && node scripts/screenshots.mjs`: the demo in a fresh database, served on a free port, and the main
// pages of the web application photographed in Debian's Chromium into docs/screenshots/ (shown in the README).
import path from 'node:path';
import { startDemoWithBrowser } from './lib/demo-browser.mjs';

const { root, origin, demo, browser, close } = await startDemoWithBrowser();
const out = path.join(root, 'docs', 'screenshots');
try {
  const page = await browser.newPage({ baseURL: origin, viewport: { width: 1280, height: 800 } });
  await page.goto('/app/sign-in');
  await page.screenshot({ path: path.join(out, 'sign-in.png') });
  await page.getByLabel('E-mail').fill(demo.sign_in.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(demo.sign_in.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByTestId('signed-in-as').waitFor();
  await page.goto('/app/');
  // Every card's count arrived (a digit, not the "…" it shows while asking).
  for (const card of ['need-approvals', 'need-open', 'need-expiring', 'need-below-minimum']) {
    await page.getByTestId(card).getByTestId('count').filter({ hasText: /\d/ }).waitFor();
  }
  await page.screenshot({ path: path.join(out, 'home.png') });
  await page.goto('/app/put-away');
  await page.getByRole('heading', { name: 'Put away' }).first().waitFor();
  await page.screenshot({ path: path.join(out, 'put-away.png') });
  await page.goto(`/app/inventory?lab=${demo.migrated_lab_id}`);
  await page.getByTestId('items-table').waitFor();
  await page.screenshot({ path: path.join(out, 'inventory.png') });
  await page.goto(`/app/inventory/items/${demo.migrated_item_id}`);
  await page.getByTestId('history-table').or(page.getByText('No changes yet.')).waitFor();
  await page.screenshot({ path: path.join(out, 'item.png'), fullPage: true });
  await page.goto('/app/order-requests?status=all');
  await page.getByTestId('orders-table').waitFor();
  await page.screenshot({ path: path.join(out, 'order-requests.png') });
  await page.getByTestId('orders-table').getByRole('link').first().click();
  await page.getByTestId('order-status').waitFor();
  await page.screenshot({ path: path.join(out, 'order-request.png') });
  await page.goto('/app/settings');
  await page.getByText('API tokens').waitFor();
  await page.screenshot({ path: path.join(out, 'settings.png') });
  await page.goto(`/app/locations?lab=${demo.migrated_lab_id}`);
  await page.getByTestId('location-row').first().waitFor();
  await page.screenshot({ path: path.join(out, 'locations.png') });
  await page.goto('/app/shop');
  await page.getByTestId('products-table').waitFor();
  await page.screenshot({ path: path.join(out, 'shop.png') });
  await page.goto('/app/webhooks');
  await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
  await page.screenshot({ path: path.join(out, 'webhooks.png') });
  await page.goto('/app/admin/members');
  await page.getByRole('heading', { name: 'Members' }).waitFor();
  await page.screenshot({ path: path.join(out, 'members.png') });
  // Single sign-on set up through its page: the claimed domain then waits for its DNS record.
  await page.goto('/app/admin/sso');
  const sso = page.getByRole('form', { name: 'Single sign-on settings' });
  await sso.getByRole('textbox', { name: 'Issuer URL' }).fill('https://login.example.org/realms/lab');
  await sso.getByRole('textbox', { name: 'Client ID' }).fill('labstock');
  await sso.getByLabel('Client secret').fill('a-client-secret-for-the-picture');
  await sso.getByRole('textbox', { name: 'Allowed e-mail domains' }).fill('example.org');
  await sso.getByRole('button', { name: 'Save' }).click();
  await page.getByTestId('sso-domain-example.org').waitFor();
  await page.screenshot({ path: path.join(out, 'sso.png'), fullPage: true });
  const phone = await browser.newPage({ baseURL: origin, viewport: { width: 390, height: 844 } });
  await phone.context().addCookies(await page.context().cookies());
  await phone.goto(`/app/inventory/items/${demo.migrated_item_id}`);
  await phone.getByTestId('item-name').waitFor();
  await phone.screenshot({ path: path.join(out, 'item-390px.png') });
  await phone.goto('/app/');
  for (const card of ['need-approvals', 'need-open']) {
    await phone.getByTestId(card).getByTestId('count').filter({ hasText: /\d/ }).waitFor();
  }
  await phone.screenshot({ path: path.join(out, 'home-390px.png') });
  await phone.goto('/app/inventory');
  await phone.getByTestId('items-total').waitFor();
  await phone.screenshot({ path: path.join(out, 'inventory-390px.png') });
  await phone.goto('/app/order-requests?status=all');
  await phone.getByTestId('orders-table').waitFor();
  await phone.screenshot({ path: path.join(out, 'order-requests-390px.png') });
  await phone.goto('/app/admin/sso');
  await phone.getByTestId('sso-domain-example.org').scrollIntoViewIfNeeded();
  await phone.screenshot({ path: path.join(out, 'sso-390px.png') });
  // At the bench (issue 25): a bottle's page with its safety data sheet and code, and the scan page, on a phone.
  await phone.goto(`/app/inventory/items/${demo.migrated_item_id}/instances/${demo.migrated_instance_id}`);
  await phone.getByText('Safety data sheet', { exact: false }).first().waitFor();
  await phone.screenshot({ path: path.join(out, 'container-390px.png'), fullPage: true });
  await phone.goto('/app/scan');
  await phone.getByRole('button', { name: 'Scan with the camera' }).waitFor();
  await phone.screenshot({ path: path.join(out, 'scan-390px.png') });
  await page.goto(`/app/inventory/items/${demo.migrated_item_id}/instances/${demo.migrated_instance_id}`);
  await page.getByText('Safety data sheet', { exact: false }).first().waitFor();
  await page.screenshot({ path: path.join(out, 'container.png'), fullPage: true });
  console.log(`screenshots in ${path.relative(process.cwd(), out)}`);
} finally {
  await close();
}
