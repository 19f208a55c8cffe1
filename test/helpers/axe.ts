// Accessibility checks for the browser journeys (issue 13: axe-core on every page, no serious or critical
// violations; usable at a phone's 390 px width).

import { AxeBuilder } from '@axe-core/playwright';
import axe, { type AxeResults, type RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const OPTIONS: RunOptions = { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } };

/**
 * axe-core's own `axe.run` on the page's document, with the same axe-core and options as AxeBuilder. AxeBuilder
 * injects the 1.4 MB source twice per call, then opens a blank tab, injects it again and sends it every node's
 * result to merge frames' results: ~0.85 s of CPU per check against ~0.2 s here (the source stays in the document
 * until it navigates away). That merging is only needed for iframes, which the application has none of: a page
 * with one still goes through AxeBuilder.
 */
async function runAxe(page: Page): Promise<AxeResults> {
  if (page.frames().length > 1) return new AxeBuilder({ page }).options(OPTIONS).analyze();
  if (!(await page.evaluate('typeof window.axe?.run === "function"'))) await page.evaluate(axe.source);
  return (await page.evaluate(`axe.run(document, ${JSON.stringify(OPTIONS)})`)) as AxeResults;
}

/**
 * Waits (at most 2 s) for every CSS transition and finite animation in the page to end. On a quick machine a check
 * otherwise meets the page mid-transition: a button still fading between its colours (axe measured 3.16:1 between
 * two of them), or the app shell's navbar still sliding away after a resize (407 px in a 390 px window). Endless
 * ones (spinners, a running progress bar) are not waited for.
 */
async function transitionsEnded(page: Page): Promise<void> {
  await page.evaluate(`Promise.race([
    new Promise((resolve) => setTimeout(resolve, 2000)),
    Promise.all(document.getAnimations()
      .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
      .map((a) => a.finished.catch(() => undefined))),
  ])`);
}

/** Runs axe-core (WCAG 2.0/2.1 A and AA rules) on the page as it is now; fails listing every serious or critical violation. */
export async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  // Checked at rest: a link the journey just clicked would otherwise be judged in its hover colours.
  await page.mouse.move(0, 0);
  await transitionsEnded(page);
  const results = await runAxe(page);
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join(', ')}`);
  expect(serious, `axe on ${page.url()}`).toEqual([]);
}

/** The page fits a phone's width: nothing makes the document scroll sideways. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await transitionsEnded(page);
  // A string, evaluated in the page: the tests' TypeScript has no DOM types.
  // The innermost elements that reach past the window are named, so a failure says what to fix.
  const { scrollWidth, clientWidth, wide } = (await page.evaluate(`(() => {
    const root = document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide: [] };
    // What a scroll container holds scrolls inside it and widens nothing.
    const clipped = (el) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return true;
      return false;
    };
    const past = [...document.body.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5 && !clipped(el));
    const wide = past
      .filter((el) => !past.some((other) => other !== el && el.contains(other)))
      .slice(0, 5)
      .map((el) => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '') +
        ' "' + (el.textContent ?? '').trim().slice(0, 60) + '" right=' + Math.round(el.getBoundingClientRect().right));
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide };
  })()`)) as { scrollWidth: number; clientWidth: number; wide: string[] };
  expect(scrollWidth, `${page.url()} is ${scrollWidth}px wide in a ${clientWidth}px window: ${wide.join('; ')}`).toBeLessThanOrEqual(
    clientWidth,
  );
}
