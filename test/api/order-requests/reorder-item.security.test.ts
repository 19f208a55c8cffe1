import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { counts, createOrder, expectNotFound, MISSING_ID, orderBody } from './_helpers.js';
import { productItem, reorder } from './_reorder.js';

const h = useHarness();

const price = { amount: '3.00', currency: 'USD' };

async function expectNotVisible(token: string, itemId: string) {
  const before = await counts(h);
  const res = await reorder(h, token, itemId, { price });
  expect(res.statusCode, res.body).toBe(404);
  expectNotFound(res);
  expect(await counts(h)).toEqual(before);
  return res;
}

describe('POST /inventory-items/{id}/reorder across tenants and labs', () => {
  it("404 for another organization's item, with the same answer as for a missing one and nothing of it", async () => {
    const foreign = await productItem(h, h.b.admin.token, h.b.legacyLab);
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) await expectNotVisible(token, foreign.id);
    const res = await expectNotVisible(h.a.admin.token, foreign.id);
    const missing = await reorder(h, h.a.admin.token, MISSING_ID, { price });
    expect(res.json().message).toBe(missing.json().message);
    expect(res.body).not.toContain(foreign.name);
    expect(res.body).not.toContain(h.b.legacyLab.id);
  });

  it("does not read another organization's price: B's requests for the same product leave A without one", async () => {
    const mine = await productItem(h, h.a.admin.token, h.a.legacyLab);
    await createOrder(h, h.b.admin.token, orderBody(h.b.legacyLab, { vendor_name: mine.vendor, catalog_number: mine.catalog_number }));
    const res = await reorder(h, h.a.admin.token, mine.id);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.body).not.toContain('12.50');
  });

  it("404 for a member on an item of a lab they do not belong to, and for an outsider on any lab's item", async () => {
    const inOtherLab = await productItem(h, h.a.admin.token, h.a.otherLab);
    await expectNotVisible(h.a.member.token, inOtherLab.id);
    const inTheirLab = await productItem(h, h.a.admin.token, h.a.legacyLab);
    await expectNotVisible(h.a.outsider.token, inTheirLab.id);
    // …while the member of that lab may, and the request is theirs.
    const ok = await reorder(h, h.a.member.token, inTheirLab.id, { price });
    expect(ok.statusCode, ok.body).toBe(201);
    const me = (await h.call(h.a.member.token, { method: 'GET', url: '/user' })).json();
    expect(ok.json().requested_by.id).toBe(me.id);
  });
});
