// Journey: what a label's QR code opens (docs/labels.md). /app/c/{code} replaces itself with the thing's page; a code
// of another organization shows "not found" and nothing about it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const codeOf = async (kind: 'instance' | 'location' | 'item', id: string) =>
  (await h.deps.db.selectFrom('label_codes').select('code').where('kind', '=', kind).where('target_id', '=', id).executeTakeFirstOrThrow())
    .code;

describe('journey: open a label', () => {
  it("a member opens a container's label address and lands on its item; Back does not return to the label", async () => {
    const code = await codeOf('instance', h.a.migratedLab.instanceIds[0]!);
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/inventory');
    await page.goto(`/app/c/${code.toLowerCase()}`);
    await page.waitForURL(new RegExp(`/app/inventory/items/${h.a.migratedLab.itemId}\\?instance=`));
    await page.getByTestId('instances-table').waitFor();
    await page.goBack();
    await page.waitForURL(/\/app\/inventory$/);
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it("a location's label opens the location tree; another organization's label is not found", async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', '/app/');
    await page.goto(`/app/c/${await codeOf('location', h.a.migratedLab.locationIds[1]!)}`);
    await page.waitForURL(/\/app\/locations\?location=/);
    await page.goto(`/app/c/${await codeOf('instance', h.b.migratedLab.instanceIds[0]!)}`);
    await page.getByTestId('not-found').waitFor();
    expect(await page.getByTestId('not-found').innerText()).toContain('This label does not exist, or it is not yours to see.');
    expect(await page.locator('body').innerText()).not.toContain('Anti-GFP B');
    await context.close();
  });
});
