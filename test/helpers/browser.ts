// Browser journeys (issue 13): the real server on a real port, and Debian's Chromium driven by Playwright. No
// browser is downloaded: `.ci/run` installs the `chromium` and `chromium-headless-shell` packages when missing.

import { existsSync } from 'node:fs';
import net from 'node:net';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { onTestFailed } from 'vitest';
import { setPassword } from '../../src/accounts/auth.js';
import { webRoot } from '../../src/server/web-app.js';
import { systemActor } from '../../src/shared/actor.js';
import { type Harness, startHarness } from './harness.js';

/**
 * Debian's chromium-headless-shell when it is installed, else the chromium browser itself (CHROMIUM_PATH chooses).
 * The shell is Chromium's old headless mode, which Playwright itself runs for headless Chromium: the same Blink and
 * V8 without the browser's own layers, at about 30% less CPU across the journeys.
 */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
export const PASSWORD = 'journey-password-of-length';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

let launched: Promise<Browser> | undefined;
let exitOnSigterm = false;

/**
 * One Chromium per vitest worker, shared by the journey files it runs one after another (vitest.config.ts runs
 * files without isolation, so this module outlives a file): a launch costs ~0.35 s of CPU, and each file still
 * gets its own contexts (cookies, storage, cache), closed when its harness closes.
 */
async function sharedBrowser(): Promise<Browser> {
  const current = await launched?.catch(() => undefined);
  if (current?.isConnected()) return current;
  launched = chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    // Vitest ends a worker with SIGTERM (then SIGKILL 0.5 s later). Exiting at once runs Playwright's exit hook,
    // which kills Chromium and removes its profile; Playwright's own SIGTERM handler would only start a graceful
    // close and keep the worker alive until the SIGKILL, which can leave Chromium running.
    handleSIGTERM: false,
  });
  if (!exitOnSigterm) {
    exitOnSigterm = true;
    process.once('SIGTERM', () => process.exit(143));
  }
  return launched;
}

export interface BrowserHarness extends Harness {
  /** http://127.0.0.1:PORT: APP_URL, so the browser may sign in from it. */
  origin: string;
  browser: Browser;
  /** Every console error and uncaught exception of the pages opened with newPage(). */
  consoleErrors: string[];
  newPage(): Promise<{ page: Page; context: BrowserContext }>;
  signIn(page: Page, email: string, path?: string): Promise<void>;
}

/** The harness (two organizations) listening on a port, with passwords for A's and B's users, and a browser. */
export async function startBrowserHarness(env: Record<string, string> = {}): Promise<BrowserHarness> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  if (!webRoot()) throw new Error('The web application is not built: npm run build');
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const h = await startHarness({ ...env, APP_URL: origin });
  await h.app.listen({ port, host: '127.0.0.1' });
  for (const org of [h.a, h.b])
    for (const user of [org.admin, org.member, org.outsider]) await setPassword(h.deps.db, systemActor('cli'), user.id, PASSWORD);
  const browser = await sharedBrowser();
  const consoleErrors: string[] = [];
  return {
    ...h,
    origin,
    browser,
    consoleErrors,
    async newPage() {
      const context = await browser.newContext({ baseURL: origin });
      const page = await context.newPage();
      page.on('console', (message) => {
        // A refused sign-in answers 401 by design, and Chromium logs every 4xx load (the session check itself answers
        // 200 signed out: test/browser/look.test.ts listens without this filter).
        if (message.type() === 'error' && !/status of 401/.test(message.text())) consoleErrors.push(message.text());
      });
      page.on('pageerror', (err) => consoleErrors.push(String(err)));
      // A journey that fails says what the page showed and which calls failed, not only which locator it awaited.
      const failedCalls: string[] = [];
      page.on('response', (r) => {
        if (r.status() >= 400) failedCalls.push(`${r.status()} ${r.request().method()} ${r.url().replace(origin, '')}`);
      });
      try {
        onTestFailed(async () => {
          if (page.isClosed()) return;
          const text = await page
            .locator('body')
            .innerText({ timeout: 2000 })
            .catch((err: unknown) => `(unreadable: ${String(err)})`);
          console.error(
            `[browser] ${page.url()} showed:\n${text.slice(0, 2000)}\n[browser] failed calls: ${failedCalls.join(', ') || 'none'}` +
              `\n[browser] console errors: ${consoleErrors.join(' | ') || 'none'}`,
          );
        });
      } catch {
        // Opened outside a test (a beforeAll): nothing to report it to.
      }
      return { page, context };
    },
    async signIn(page, email, path = '/app/') {
      await page.goto(path);
      await page.getByLabel('E-mail').fill(email);
      await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      // Attached, not visible: at a phone's width the header hides the name.
      await page.getByTestId('signed-in-as').waitFor({ state: 'attached' });
    },
    async close() {
      // Whatever this file opened goes; the browser stays for the worker's next file. A test file has the worker
      // to itself, so every context open now is this file's.
      await Promise.all(browser.contexts().map((c) => c.close()));
      await h.close();
    },
  };
}
