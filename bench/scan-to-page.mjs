// `npm run build && node bench/scan-to-page.mjs`: how long a scan takes to show its container on loopback (issue
// 25: under 300 ms; docs/scanning.md).
//
// The demo in a fresh embedded database, served by `labstock serve` (dist/) on a free port, and Debian's Chromium.
// A signed-in person is on the inventory page (the app loaded, as at the bench); a keyboard-wedge scan of a
// container's label is typed there, and the clock runs from the scanner's Enter until the scan page shows the
// container with its actions: the scan page's chunk if not yet loaded, GET /codes/{code}, GET /inventory-items/{id}
// and the render. Prints the median, p95 and worst, and writes bench/results/scan-<time>.json.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startDemoWithBrowser } from '../scripts/lib/demo-browser.mjs';

const { values: opt } = parseArgs({ options: { samples: { type: 'string', default: '30' } } });
const samples = Number(opt.samples);
const TARGET_MS = 300;
const { root, origin, demo, browser, close } = await startDemoWithBrowser();

try {
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto('/app/sign-in');
  await page.getByLabel('E-mail').fill(demo.sign_in.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(demo.sign_in.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByTestId('signed-in-as').waitFor({ state: 'attached' });
  const codes = await page.evaluate(
    async (id) => (await fetch(`/codes?instance_id=${id}`, { credentials: 'same-origin' })).json(),
    demo.migrated_instance_id,
  );
  const code = codes[0]?.code;
  if (!code) throw new Error('The demo container has no label code');

  /** One scan from the inventory page; the first sample also loads the scan page's chunk (a cold scan). */
  async function scan() {
    await page.goto(`/app/inventory?lab=${demo.migrated_lab_id}`);
    await page.getByTestId('items-table').waitFor();
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.type(code);
    const start = performance.now();
    await page.keyboard.press('Enter');
    await page.getByTestId('scanned-container').getByRole('button', { name: 'Record use' }).waitFor();
    return performance.now() - start;
  }

  const cold = await scan();
  const xs = [];
  for (let i = 0; i < samples; i++) xs.push(await scan());
  xs.sort((a, b) => a - b);
  const at = (q) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  const result = { samples, cold_ms: cold, median_ms: at(0.5), p95_ms: at(0.95), max_ms: xs.at(-1), target_ms: TARGET_MS };
  console.log(`scan to page on ${origin} (${samples} samples after one cold scan; target < ${TARGET_MS} ms)`);
  console.log(
    `  cold ${cold.toFixed(0)} ms  median ${result.median_ms.toFixed(0)} ms  p95 ${result.p95_ms.toFixed(0)} ms  worst ${result.max_ms.toFixed(0)} ms  ${result.p95_ms < TARGET_MS ? 'met' : 'MISSED'}`,
  );
  const out = path.join(root, 'bench', 'results');
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, `scan-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), result }, null, 2)}\n`);
  console.log(`written ${path.relative(process.cwd(), file)}`);
} finally {
  await close();
}
