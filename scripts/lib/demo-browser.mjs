// The demo in a fresh embedded database, served by `labstock serve` (dist/) on a free port, and Debian's Chromium:
// what scripts/screenshots.mjs and bench/web-load.mjs both start before they open pages. Needs `npm run build`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = path.join(root, 'dist', 'cli', 'main.js');

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** The demo served and a browser: `demo` is `labstock demo --json`'s answer (sign-in, ids); close() stops both. */
export async function startDemoWithBrowser() {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    DATABASE_URL: path.join(mkdtempSync(path.join(tmpdir(), 'labstock-demo-')), 'demo.sqlite'),
    PORT: String(port),
    APP_URL: origin,
    LOG_LEVEL: 'warn',
  };
  const demo = JSON.parse(execFileSync(process.execPath, [cli, 'demo', '--json'], { env, encoding: 'utf8' }));
  const server = spawn(process.execPath, [cli, 'serve'], { env, stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`${origin}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  return {
    root,
    origin,
    demo,
    browser,
    async close() {
      await browser.close();
      server.kill();
    },
  };
}
