// Journey (issue 26, controlled substances; docs/controlled-substances.md): a member records a use of a controlled
// substance on its page; the ledger says it in a sentence, waiting for a witness, and the member cannot witness it
// themself; the admin, in a browser of their own, finds it under "Waiting for a witness" and witnesses it with a
// double-click (witnessed once); the member reconciles against a count. At 390 px both pages show what the person
// came for.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeControlled } from '../api/controlled/_controlled.js';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const SHOTS = process.env.CONTROLLED_SCREENSHOTS;

const witnessRows = async (itemId: string) =>
  h.deps.db
    .selectFrom('controlled_witnesses as w')
    .innerJoin('controlled_ledger as e', 'e.id', 'w.entry_id')
    .select(['w.entry_id', 'w.witnessed_by'])
    .where('e.item_id', '=', itemId)
    .execute();

describe('journey: a use of a controlled substance, witnessed by another person', () => {
  it('the member records a use; the admin witnesses it once in their own session; the member reconciles', async () => {
    const c = await makeControlled(h);
    const name = (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${c.itemId}` })).json().name;
    // The opening entry is witnessed already, so the one waiting is the use.
    const [opening] = (await h.call(h.a.admin.token, { method: 'GET', url: `/controlled-items/${c.itemId}/ledger` })).json();
    expect((await h.call(h.a.member.token, { method: 'POST', url: `/controlled-entries/${opening.id}/witness` })).statusCode).toBe(200);

    const ana = await h.newPage();
    await h.signIn(ana.page, 'member-A@example.org', `/app/inventory/items/${c.itemId}`);
    const section = ana.page.getByTestId('controlled-section');
    await section.getByText('DEA Schedule II', { exact: true }).waitFor();
    await section.getByTestId('controlled-balance').getByText('7 mL').waitFor();
    await ana.page.getByLabel('Change by').fill('-2');
    await ana.page.getByLabel('Note').fill('for the rat study');
    await ana.page.getByRole('button', { name: 'Adjust', exact: true }).click();
    const use = section.getByTestId('ledger-entry').filter({ hasText: 'used 2 mL' });
    await use.getByText(/^Max MemberA used 2 mL on .+, waiting for a witness\.$/).waitFor();
    await use.getByText('“for the rat study”').waitFor();
    await use.getByText('You made this entry: another person of the lab witnesses it.').waitFor();
    expect(await use.getByRole('button', { name: 'I witnessed this' }).count()).toBe(0);
    await section.getByTestId('controlled-balance').getByText('5 mL').waitFor();
    await expectNoSeriousAxeViolations(ana.page);
    if (SHOTS) await ana.page.screenshot({ path: `${SHOTS}/controlled-item-1280.png`, fullPage: true });

    // Ben (the admin) in a browser of his own: the lab's entries waiting for a witness.
    const ben = await h.newPage();
    await h.signIn(ben.page, 'admin-A@example.org', '/app/controlled');
    await ben.page.getByRole('heading', { name: 'Waiting for a witness' }).waitFor();
    const waiting = ben.page.getByRole('list', { name: 'Waiting for a witness' }).getByTestId('ledger-entry').filter({ hasText: name });
    await waiting.getByText(/Max MemberA used 2 mL on .+, waiting for a witness\./).waitFor();
    await expectNoSeriousAxeViolations(ben.page);
    if (SHOTS) await ben.page.screenshot({ path: `${SHOTS}/controlled-waiting-1280.png`, fullPage: true });
    await waiting.getByRole('button', { name: 'I witnessed this' }).dblclick();
    await expect.poll(() => waiting.count()).toBe(0);
    const rows = await witnessRows(c.itemId);
    expect(rows.filter((r) => r.witnessed_by === h.a.admin.id)).toHaveLength(1);

    // Back on Ana's page: the ledger says who witnessed it; she reconciles against a count of 4.
    await ana.page.reload();
    await section.getByText(/^Max MemberA used 2 mL on .+, witnessed by Ada AdminA\.$/).waitFor();
    await section.getByRole('button', { name: 'Reconcile against a count' }).click();
    await section.getByLabel('Counted now').fill('4');
    await section.getByRole('button', { name: 'Compare' }).click();
    await section.getByTestId('reconciliation-difference').getByText('1 mL missing').waitFor();
    await section.getByText('Every entry is witnessed.').waitFor();
    const csv = section.getByRole('link', { name: 'Download the reconciliation (CSV)' });
    expect(await csv.getAttribute('href')).toBe(`/controlled-items/${c.itemId}/reconciliation.csv?counted=4`);
    if (SHOTS) await ana.page.screenshot({ path: `${SHOTS}/controlled-reconcile-1280.png`, fullPage: true });
    await ana.context.close();
    await ben.context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('at 390 px: the balance, the ledger and the witness button are on screen, nothing scrolls sideways', async () => {
    const c = await makeControlled(h);
    // One entry by each: each person finds one made by the other, with its witness button.
    const use = await h.call(h.a.member.token, {
      method: 'POST',
      url: `/inventory-items/${c.itemId}/adjustments`,
      payload: { delta: '-1', note: 'assay', instance_id: c.instanceIds[0] },
    });
    expect(use.statusCode, use.body).toBe(200);
    for (const [email, path, made] of [
      ['member-A@example.org', `/app/inventory/items/${c.itemId}`, 'opened the ledger with 7 mL'],
      ['admin-A@example.org', '/app/controlled', 'used 1 mL'],
    ] as const) {
      const { page, context } = await h.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      await h.signIn(page, email, path);
      const entry = page.getByTestId('ledger-entry').filter({ hasText: made }).first();
      await entry.waitFor();
      const targets = [entry, entry.getByRole('button', { name: 'I witnessed this' })];
      if (path.includes('items')) targets.push(page.getByTestId('controlled-balance'));
      for (const target of targets) {
        await target.scrollIntoViewIfNeeded();
        expect(await target.isVisible()).toBe(true);
      }
      await expectNoSidewaysScroll(page);
      await expectNoSeriousAxeViolations(page);
      if (SHOTS)
        await page.screenshot({ path: `${SHOTS}/controlled-${path.includes('items') ? 'item' : 'waiting'}-390.png`, fullPage: true });
      await context.close();
    }
    expect(h.consoleErrors).toEqual([]);
  });
});
