// `npm run build && node scripts/screenshots.mjs`: the demo in a fresh database, served on a free port, and the main
// pages of the web application photographed in Debian's Chromium into docs/screenshots/ (shown in the README).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli', 'main.js');
const out = path.join(root, 'docs', 'screenshots');
const port = await new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const { port: p } = s.address();
    s.close(() => resolve(p));
  });
});
const origin = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  DATABASE_URL: path.join(mkdtempSync(path.join(tmpdir(), 'labstock-shots-')), 'demo.sqlite'),
  PORT: String(port),
  APP_URL: origin,
  LOG_LEVEL: 'warn',
};
const demo = JSON.parse(execFileSync(process.execPath, [cli, 'demo', '--json'], { env, encoding: 'utf8' }));
const server = spawn(process.execPath, [cli, 'serve'], { env, stdio: 'ignore' });
for (let i = 0; i < 50; i++) {
  if (
    await fetch(`${origin}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await new Promise((r) => setTimeout(r, 100));
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ baseURL: origin, viewport: { width: 1280, height: 800 } });
  await page.goto('/app/sign-in');
  await page.screenshot({ path: path.join(out, 'sign-in.png') });
  await page.getByLabel('E-mail').fill(demo.sign_in.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(demo.sign_in.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByTestId('signed-in-as').waitFor();
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
  const phone = await browser.newPage({ baseURL: origin, viewport: { width: 390, height: 844 } });
  await phone.context().addCookies(await page.context().cookies());
  await phone.goto(`/app/inventory/items/${demo.migrated_item_id}`);
  await phone.getByTestId('item-name').waitFor();
  await phone.screenshot({ path: path.join(out, 'item-390px.png') });
  console.log(`screenshots in ${path.relative(process.cwd(), out)}`);
} finally {
  await browser.close();
  server.kill();
}
