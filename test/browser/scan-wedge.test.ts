// Journey (issue 25, docs/scanning.md): a keyboard-wedge scanner on any page. A container's label opens it on the
// scan page, where "use some" records an adjustment with its note; a shelf's label then a container's moves the
// container there; the label's URL form works as the bare code does; another organization's label says "not found"
// and nothing more; a person typing slowly is not a scan.

import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const codeOf = async (kind: 'instance' | 'location', id: string) =>
  (await h.deps.db.selectFrom('label_codes').select('code').where('kind', '=', kind).where('target_id', '=', id).executeTakeFirstOrThrow())
    .code;

/** Nothing focused: the page itself takes the keystrokes, as when a person has just looked something up. */
async function unfocus(page: Page) {
  await page.evaluate('document.activeElement?.blur()');
}

/**
 * What a wedge scanner does: the characters one right after the other, then Enter, wherever the focus is; then waits
 * for what the scan brings up (`answer`). Playwright sends each key in messages of its own, and on a loaded CI
 * machine they can reach the page further apart than a scanner's (web/src/scan/wedge.ts rightly takes that for a
 * person typing, and nothing happens): if nothing answered within 5 s the same scan is sent once more. Every scan
 * here is one whose repetition changes nothing (opening, finding, moving to the same place, filling a form).
 */
async function wedge(page: Page, text: string, answer: Locator) {
  const send = async () => {
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  };
  await send();
  const answered = await answer
    .first()
    .waitFor({ timeout: 5_000 })
    .then(
      () => true,
      () => false,
    );
  if (!answered) await send();
  await answer.first().waitFor();
}

const instance = (id: string) =>
  h.deps.db.selectFrom('inventory_item_instances').select(['quantity', 'location_id']).where('id', '=', id).executeTakeFirstOrThrow();

describe('journey: scan with a keyboard wedge', () => {
  it('a container scanned on the inventory page opens with its actions; "use some" records the use with its note', async () => {
    const [bottle] = h.a.migratedLab.instanceIds;
    const code = await codeOf('instance', bottle!);
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/inventory');
    await page.getByRole('link', { name: 'Anti-GFP A' }).first().waitFor();
    await unfocus(page);
    const card = page.getByTestId('scanned-container');
    // How fast a scan opens its page is measured by the bench (bench/scan-to-page.mjs, docs/scanning.md), not here.
    await wedge(page, code, card);
    expect(page.url()).toMatch(/\/app\/scan$/);
    expect(await card.innerText()).toContain(`Anti-GFP A`);
    await expectNoSeriousAxeViolations(page);

    await card.getByRole('textbox', { name: 'How much was used' }).fill('0.03');
    await card.getByRole('textbox', { name: 'Note' }).fill('western blot');
    const record = card.getByRole('button', { name: 'Record use' });
    await record.dblclick();
    await card.getByRole('status').filter({ hasText: 'Used 0.03.' }).waitFor();
    expect(Number((await instance(bottle!)).quantity)).toBeCloseTo(0.07);
    // Double-clicked: one adjustment, carrying its note.
    const used = await h.deps.db.selectFrom('inventory_item_changes').selectAll().where('note', '=', 'western blot').execute();
    expect(used).toHaveLength(1);
    expect(used[0]).toMatchObject({ instance_id: bottle, field: 'instance.quantity' });
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it("a shelf's label then a container's (as its label URL) moves the container there; a phone shows it all", async () => {
    const [, loose] = h.a.migratedLab.instanceIds;
    const shelf = h.a.migratedLab.locationIds[2]!;
    expect((await instance(loose!)).location_id).toBeNull();
    const { page, context } = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await h.signIn(page, 'member-A@example.org', '/app/scan');
    await page.getByRole('heading', { name: 'Scan' }).waitFor();
    await unfocus(page);
    const target = page.getByTestId('put-away-target');
    await wedge(page, await codeOf('location', shelf), target);
    await wedge(page, `${h.origin}/app/c/${await codeOf('instance', loose!)}`, target.getByText('moved here'));
    expect((await instance(loose!)).location_id).toBe(shelf);
    await expectNoSidewaysScroll(page);
    await context.close();
  });

  it("another organization's label says not found and nothing else; slow typing is no scan", async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/inventory');
    await page.getByRole('link', { name: 'Anti-GFP A' }).first().waitFor();
    await unfocus(page);
    const notice = page.getByTestId('scan-notice');
    await wedge(page, await codeOf('instance', h.b.migratedLab.instanceIds[0]!), notice);
    expect(await notice.innerText()).toBe('Not found.');
    expect(await page.locator('body').innerText()).not.toContain('Anti-GFP B');
    expect(await page.getByTestId('scanned-container').count()).toBe(0);

    await page.goto('/app/inventory');
    await page.getByRole('link', { name: 'Anti-GFP A' }).first().waitFor();
    await unfocus(page);
    await page.keyboard.type('ABCDEF', { delay: 120 });
    await page.keyboard.press('Enter');
    await page.waitForTimeout(300);
    expect(page.url()).toMatch(/\/app\/inventory$/);
    await context.close();
  });

  it("a manufacturer's barcode scanned while adding a container, no field focused, fills its lot and expiry there", async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/inventory/items/${h.a.migratedLab.itemId}`);
    await page.getByRole('button', { name: 'Add an instance' }).click();
    const form = page.getByRole('form', { name: 'Add an instance' });
    await unfocus(page);
    await wedge(page, '(01)09506000134352(17)280229(10)WEDGE7', form.getByTestId('vendor-barcode-read'));
    expect(page.url()).toContain(`/app/inventory/items/${h.a.migratedLab.itemId}`);
    expect(await form.getByRole('textbox', { name: 'Lot number' }).inputValue()).toBe('WEDGE7');
    expect(await form.getByLabel('Expires').inputValue()).toBe('2028-02-29');
    await context.close();
  });
});
