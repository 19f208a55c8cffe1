import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { counts, expectValidationError, MISSING_ID } from './_helpers.js';
import { productItem, reorder } from './_reorder.js';

const h = useHarness();

/** A refused reorder answers `status` and writes nothing. */
async function expectRefused(itemId: string, payload: Record<string, unknown> | undefined, status: number) {
  const before = await counts(h);
  const res = await reorder(h, h.a.admin.token, itemId, payload);
  expect(res.statusCode, res.body).toBe(status);
  expect(await counts(h)).toEqual(before);
  return res;
}

describe('POST /inventory-items/{id}/reorder refuses', () => {
  it('422 naming price when the lab never asked for the product and none is sent', async () => {
    const item = await productItem(h, h.a.admin.token, h.a.legacyLab);
    const res = await expectRefused(item.id, {}, 422);
    expectValidationError(res, 'price');
  });

  it('422 naming what the item lacks: vendor, catalog number, type', async () => {
    const item = await productItem(h, h.a.admin.token, h.a.legacyLab, { vendor: null, catalog_number: '  ', type_id: null });
    const res = await expectRefused(item.id, { price: { amount: '1.00', currency: 'USD' } }, 422);
    const fields = res
      .json()
      .errors.map((e: { field: string }) => e.field)
      .sort();
    expect(fields).toEqual(['item.catalog_number', 'item.type', 'item.vendor']);
  });

  it('422 for a bad quantity, an unknown currency, a bad date, an unknown field', async () => {
    const item = await productItem(h, h.a.admin.token, h.a.legacyLab);
    const price = { amount: '1.00', currency: 'USD' };
    expectValidationError(await expectRefused(item.id, { price, quantity: 0 }, 422), 'quantity');
    expectValidationError(await expectRefused(item.id, { price, quantity: 1.5 }, 422), 'quantity');
    expectValidationError(await expectRefused(item.id, { price: { amount: '1.00', currency: 'XXQ' } }, 422), 'price.currency');
    expectValidationError(await expectRefused(item.id, { price: { amount: '1.001', currency: 'USD' } }, 422), 'price.amount');
    expectValidationError(await expectRefused(item.id, { price, required_before: '2027-02-30' }, 422), 'required_before');
    await expectRefused(item.id, { price, lab_id: h.a.otherLab.id }, 422);
  });

  it('404 for an item that does not exist, 422 for an id that is not one', async () => {
    await expectRefused(MISSING_ID, { price: { amount: '1.00', currency: 'USD' } }, 404);
    await expectRefused('not-an-id', { price: { amount: '1.00', currency: 'USD' } }, 422);
  });

  it('401 without a token', async () => {
    const item = await productItem(h, h.a.admin.token, h.a.legacyLab);
    const before = await counts(h);
    const res = await reorder(h, null, item.id, { price: { amount: '1.00', currency: 'USD' } });
    expect(res.statusCode).toBe(401);
    expect(await counts(h)).toEqual(before);
  });
});
