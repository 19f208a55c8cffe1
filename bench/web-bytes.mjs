// `node bench/web-bytes.mjs` (after `npm run build`): the bytes a cold load of the web application moves over the
// wire (issue 23: precompressed assets). A new browser context per load (nothing cached); the bytes are Chromium's
// own count of each response as received (`encodedDataLength`: headers and the body as sent, compressed or not).
// Prints the sign-in page and a signed-in person's inventory, each with its files by type. See docs/performance.md.
import { startDemoWithBrowser } from '../scripts/lib/demo-browser.mjs';

const { origin, demo, browser, close } = await startDemoWithBrowser();

async function coldLoad(url, ready, cookies = []) {
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1280, height: 800 } });
  await context.addCookies(cookies);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const urls = new Map();
  const bytes = new Map();
  cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, e.response));
  cdp.on('Network.loadingFinished', (e) => bytes.set(e.requestId, e.encodedDataLength));
  await page.goto(url);
  await ready(page);
  await page.waitForLoadState('networkidle');
  const rows = [...bytes].map(([id, n]) => {
    const res = urls.get(id);
    return { url: res?.url ?? id, bytes: n, encoding: res?.headers['content-encoding'] ?? res?.headers['Content-Encoding'] ?? '' };
  });
  await context.close();
  return rows;
}

try {
  const signIn = await browser.newContext({ baseURL: origin });
  const p = await signIn.newPage();
  await p.goto('/app/sign-in');
  await p.getByLabel('E-mail').fill(demo.sign_in.email);
  await p.getByRole('textbox', { name: 'Password' }).fill(demo.sign_in.password);
  await p.getByRole('button', { name: 'Sign in', exact: true }).click();
  await p.getByTestId('signed-in-as').waitFor({ state: 'attached' });
  const cookies = await signIn.cookies();
  await signIn.close();
  const runs = {
    'sign-in page': await coldLoad('/app/sign-in', (page) => page.getByLabel('E-mail').waitFor()),
    'inventory, signed in': await coldLoad(
      `/app/inventory?lab=${demo.migrated_lab_id}`,
      (page) => page.getByTestId('items-table').waitFor(),
      cookies,
    ),
  };
  for (const [name, rows] of Object.entries(runs)) {
    const total = rows.reduce((s, r) => s + r.bytes, 0);
    const assets = rows.filter((r) => r.url.includes('/app/assets/'));
    const encodings = [...new Set(assets.map((r) => r.encoding || 'none'))].join(', ');
    console.log(
      `${name}: ${(total / 1024).toFixed(1)} kB in ${rows.length} responses (assets ${(assets.reduce((s, r) => s + r.bytes, 0) / 1024).toFixed(1)} kB, encoding ${encodings})`,
    );
  }
} finally {
  await close();
}
