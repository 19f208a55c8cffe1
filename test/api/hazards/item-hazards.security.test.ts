// GET and PUT /inventory-items/{id}/hazards (docs/hazards.md): another organization's item, an item of a lab the
// member does not belong to, and any item for a user of no lab are 404 (never 403, never data), changing nothing;
// without a token 401.
import { describe, expect, it } from 'vitest';
import { addItem } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { hazardsFixture } from './_hazards.js';

let hiddenA: string;
const h = useHarness({}, async (h) => {
  hiddenA = (await addItem(h, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Hidden oxidizer', quantity: '1' })).id;
  await h.call(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${hiddenA}/hazards`, payload: { hazard_statements: ['H271'] } });
});
const f = hazardsFixture(h);

async function refused(token: string, id: string) {
  const got = await f.unchanged(() => f.getItem(token, id));
  const put = await f.unchanged(() => f.putItem(token, id, ['H225']));
  for (const res of [got, put]) {
    expectError(res, 404, 'not_found');
    expect(res.body).not.toContain('H271');
  }
}

describe('item hazards (security)', () => {
  it("another organization's items are 404 for its admin and members", async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token])
      for (const id of [h.b.legacyLab.itemId, h.b.migratedLab.itemId]) await refused(token, id);
    for (const token of [h.b.admin.token, h.b.member.token]) await refused(token, hiddenA);
  });

  it('a member is 404 on a lab they do not belong to; a user of no lab on every item', async () => {
    await refused(h.a.member.token, hiddenA);
    for (const id of [h.a.legacyLab.itemId, h.a.migratedLab.itemId, hiddenA]) await refused(h.a.outsider.token, id);
  });

  it('without a token 401', async () => {
    expectError(await f.unchanged(() => f.getItem('', hiddenA)), 401);
    expectError(await f.unchanged(() => f.putItem('', hiddenA, ['H225'])), 401);
  });

  it("a member of the item's lab and the org admin may set them", async () => {
    expect((await f.putItem(h.a.member.token, h.a.legacyLab.itemId, ['H225'])).statusCode).toBe(200);
    const admin = await f.putItem(h.a.admin.token, hiddenA, ['H272']);
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json().classes.map((k: any) => k.id)).toEqual(['oxidizing-liquid', 'oxidizing-solid']);
  });
});
