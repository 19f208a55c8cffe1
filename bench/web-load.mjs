// `npm run bench:web`: how long the web application's first page load takes on loopback (issue 13: under 1 s).
//
// The demo in a fresh embedded database, served by `labstock serve` (dist/) on a free port, and Debian's Chromium.
// Every sample opens a new browser context, so nothing is cached: the sign-in page until its form is shown, and a
// signed-in person's first load of the inventory (the session cookie set, the page, its chunk, the session and the
// first page of items) until the table is shown. Prints the median, p95 and worst of each, with the browser's own
// first contentful paint, and writes bench/results/web-<time>.json. See docs/performance.md.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startDemoWithBrowser } from '../scripts/lib/demo-browser.mjs';

const { values: opt } = parseArgs({ options: { samples: { type: 'string', default: '15' } } });
const samples = Number(opt.samples);
const { root, origin, demo, browser, close } = await startDemoWithBrowser();

const fcp = (page) => page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);

/** One cold load: a new context (empty cache), `cookies` set, `url` opened until `ready(page)` resolves. */
async function load(url, ready, cookies = []) {
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1280, height: 800 } });
  await context.addCookies(cookies);
  const page = await context.newPage();
  const start = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await ready(page);
  const ms = performance.now() - start;
  const paint = await fcp(page);
  await context.close();
  return { ms, fcp: paint };
}

try {
  const signIn = await browser.newContext({ baseURL: origin });
  const page = await signIn.newPage();
  await page.goto('/app/sign-in');
  await page.getByLabel('E-mail').fill(demo.sign_in.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(demo.sign_in.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByTestId('signed-in-as').waitFor({ state: 'attached' });
  const cookies = await signIn.cookies();
  await signIn.close();

  const runs = {
    'sign-in page': () => load('/app/sign-in', (p) => p.getByLabel('E-mail').waitFor()),
    'inventory, signed in': () =>
      load(`/app/inventory?lab=${demo.migrated_lab_id}`, (p) => p.getByTestId('items-table').waitFor(), cookies),
  };
  const results = {};
  for (const [name, run] of Object.entries(runs)) {
    await run(); // warm the server's file cache and Chromium's process
    const xs = [];
    for (let i = 0; i < samples; i++) xs.push(await run());
    const ms = xs.map((x) => x.ms).sort((a, b) => a - b);
    const paints = xs
      .map((x) => x.fcp)
      .filter((x) => x !== null)
      .sort((a, b) => a - b);
    const at = (arr, q) => arr[Math.min(arr.length - 1, Math.floor(q * arr.length))];
    results[name] = { samples, median_ms: at(ms, 0.5), p95_ms: at(ms, 0.95), max_ms: ms.at(-1), fcp_median_ms: at(paints, 0.5) };
  }
  console.log(`web first load on ${origin} (cold cache each time, ${samples} samples; target < 1000 ms)`);
  for (const [name, r] of Object.entries(results))
    console.log(
      `  ${name.padEnd(22)} median ${r.median_ms.toFixed(0)} ms  p95 ${r.p95_ms.toFixed(0)} ms  worst ${r.max_ms.toFixed(0)} ms  first paint ${r.fcp_median_ms?.toFixed(0)} ms  ${r.p95_ms < 1000 ? 'met' : 'MISSED'}`,
    );
  const out = path.join(root, 'bench', 'results');
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, `web-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), results }, null, 2)}\n`);
  console.log(`written ${path.relative(process.cwd(), file)}`);
} finally {
  await close();
}
