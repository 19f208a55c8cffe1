// Accessibility checks for the browser journeys (issue 13): axe-core run in the page as it is, failing on the
// violations a person relying on a screen reader or keyboard cannot work around.

import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** No serious or critical axe violation on the page as it stands (each listed with the elements it names). */
export async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  // Checked at rest: a link the journey just clicked would otherwise be judged in its hover colours.
  await page.mouse.move(0, 0);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join(', ')}`);
  expect(serious).toEqual([]);
}
