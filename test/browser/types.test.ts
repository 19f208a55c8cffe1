// Journey (issue 23, "Item types managed in the app by lab managers"): a lab's types with what uses them; a manager
// (an org admin acts as one) creates (double-clicked: one type), renames and deletes an unused one; deleting a used
// one is refused with a sentence and nothing is deleted. A member reads the types, gets no buttons, and is told who can.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(() => h?.close());

const typesOf = async (labId: string) =>
  (await h.call(h.a.admin.token, { method: 'GET', url: `/types?lab_id=${labId}&per_page=100` })).json() as Promise<
    { id: string; name: string }[]
  >;

describe('journey: item types', () => {
  it('creates, renames and deletes an unused type; a used one is refused in words', async () => {
    const lab = h.a.migratedLab;
    const used = (await typesOf(lab.id)).find((t) => t.id === lab.typeId)!;
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', `/app/types?lab=${lab.id}`);
    const usedCard = page.getByRole('region', { name: `Type ${used.name}` });
    await usedCard.getByText(/Used by \d+ item/).waitFor();

    await page.getByRole('textbox', { name: 'New type' }).fill('Cell line');
    await page.getByRole('button', { name: 'Create' }).dblclick();
    const created = page.getByRole('region', { name: 'Type Cell line' });
    await created.getByText('Not used').waitFor();
    expect((await typesOf(lab.id)).filter((t) => t.name === 'Cell line')).toHaveLength(1);
    await expectNoSeriousAxeViolations(page);

    await created.getByRole('button', { name: 'Rename Cell line' }).click();
    await created.getByRole('textbox', { name: 'Name' }).fill('Cell lines');
    await created.getByRole('button', { name: 'Save' }).click();
    const renamed = page.getByRole('region', { name: 'Type Cell lines' });
    await renamed.waitFor();
    expect((await typesOf(lab.id)).map((t) => t.name)).toContain('Cell lines');

    await usedCard.getByRole('button', { name: `Delete ${used.name}` }).click();
    const refusal = await usedCard.getByTestId('type-in-use').innerText();
    expect(refusal).toMatch(new RegExp(`“${used.name}” cannot be deleted: \\d+ items? .*use`));
    expect((await typesOf(lab.id)).map((t) => t.id)).toContain(used.id);

    await renamed.getByRole('button', { name: 'Delete Cell lines' }).click();
    await renamed.getByRole('button', { name: 'Confirm deleting Cell lines' }).dblclick();
    await renamed.waitFor({ state: 'detached' });
    expect((await typesOf(lab.id)).map((t) => t.name)).not.toContain('Cell lines');
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it('a member sees the types and what uses them, no Create, Rename or Delete, and who can', async () => {
    const lab = h.a.migratedLab;
    const used = (await typesOf(lab.id)).find((t) => t.id === lab.typeId)!;
    const { page, context } = await h.newPage();
    await h.signIn(page, 'member-A@example.org', `/app/types?lab=${lab.id}`);
    const card = page.getByRole('region', { name: `Type ${used.name}` });
    await card.getByText(/Used by \d+ item/).waitFor();
    await page.getByTestId('types-managed-by').waitFor();
    expect(await page.getByTestId('types-managed-by').innerText()).toMatch(/lab's managers and your organization's admins/);
    expect(await page.getByRole('textbox', { name: 'New type' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Create' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Rename|Delete) / }).count()).toBe(0);
    await expectNoSeriousAxeViolations(page);
    await context.close();
  });

  it('at 390 px a type card with Rename and Delete fits the screen', async () => {
    const { page, context } = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await h.signIn(page, 'admin-A@example.org', `/app/types?lab=${h.a.migratedLab.id}`);
    const card = page.getByTestId('type-card').first();
    await card.waitFor();
    for (const target of [card.getByRole('button', { name: /^Rename / }), card.getByRole('button', { name: /^Delete / })]) {
      await target.scrollIntoViewIfNeeded();
      const box = (await target.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await expectNoSidewaysScroll(page);
    await context.close();
  });
});
