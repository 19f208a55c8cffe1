import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { seedBulkLegacyLab } from '../helpers/lab-migration.js';

let h: BrowserHarness;
let bulkLab: string;
const ITEMS = 1500;
beforeAll(async () => {
  h = await startBrowserHarness();
  // Three batches of 500 (src/lab-migration/rules.ts): the page shows it running, then done.
  bulkLab = await seedBulkLegacyLab(h.deps.db, h.a.orgId, h.a.admin.id, ITEMS, 'Bulk legacy lab');
});
afterAll(() => h?.close());

describe('journey: migrate a legacy lab to instances', () => {
  it('an org admin starts it, watches the progress to the end, and the lab then uses instances', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', '/app/');
    // The landing page (the home) first, as a person sees it before choosing: a click during the redirects after
    // sign-in was once overtaken by them on a loaded CI machine.
    await page.getByTestId('need-approvals').waitFor();
    await page.getByRole('link', { name: 'Lab migration' }).click();
    const table = page.getByTestId('labs-table');
    const bulkRow = table.getByRole('row', { name: /Bulk legacy lab/ });
    await bulkRow.getByRole('button', { name: 'Migrate Bulk legacy lab' }).waitFor();
    expect(await table.getByRole('row', { name: /Migrated lab A/ }).textContent()).toContain('Uses instances');
    await expectNoSeriousAxeViolations(page);

    // Every status the row shows, in order, recorded in the page as it changes.
    // (A script string: the tests are compiled without the DOM's types.)
    await page.evaluate(`
      window.seen = [];
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[data-testid="migration"]')) {
          const status = el.getAttribute('data-status') ?? '';
          if (el.closest('tr')?.textContent?.includes('Bulk legacy lab') && window.seen.at(-1) !== status) window.seen.push(status);
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    `);
    await bulkRow.getByRole('button', { name: 'Migrate Bulk legacy lab' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('This cannot be undone').waitFor();
    await dialog.getByRole('button', { name: 'Start the migration' }).click();
    await bulkRow.getByText(`Done: ${ITEMS} of ${ITEMS} items migrated`).waitFor({ timeout: 60_000 });
    expect(await bulkRow.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    const seen = (await page.evaluate('window.seen')) as string[];
    expect(seen).toContain('running');
    expect(seen.at(-1)).toBe('done');

    const lab = (await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${bulkLab}` })).json();
    expect(lab.uses_instances).toBe(true);
    // Its locations became a tree, shown on the locations page.
    await page.getByRole('link', { name: 'Locations' }).click();
    await page.getByRole('combobox', { name: 'Lab' }).click();
    await page.getByRole('option', { name: 'Bulk legacy lab' }).click();
    await page.locator('[data-testid="location-row"][data-path="Room 2 / Shelf 2"]').waitFor();
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('a member is offered no migration, the page says it is not allowed, and the server refuses', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/lab-migration');
    await page.getByTestId('not-allowed').waitFor();
    expect(await page.getByRole('link', { name: 'Lab migration' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Migrate/ }).count()).toBe(0);
    await expectNoSeriousAxeViolations(page);
    const refused = await h.call(h.a.member.token, { method: 'POST', url: `/labs/${h.a.legacyLab.id}/migrate-to-instances` });
    expect(refused.statusCode).toBe(403);
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });
});
