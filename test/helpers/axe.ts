// Accessibility checks for the browser journeys (issue 13: axe-core on every page, no serious or critical
// violations; usable at a phone's 390 px width).

import { AxeBuilder } from '@axe-core/playwright';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Runs axe-core (WCAG 2.0/2.1 A and AA rules) on the page as it is now; fails listing every serious or critical violation. */
export async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  const results: AxeResults = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `axe on ${page.url()}`).toEqual([]);
}

/** The page fits a phone's width: nothing makes the document scroll sideways. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  // A string, evaluated in the page: the tests' TypeScript has no DOM types.
  const { scrollWidth, clientWidth } = (await page.evaluate(
    '({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth })',
  )) as { scrollWidth: number; clientWidth: number };
  expect(scrollWidth, `${page.url()} is ${scrollWidth}px wide in a ${clientWidth}px window`).toBeLessThanOrEqual(clientWidth);
}
