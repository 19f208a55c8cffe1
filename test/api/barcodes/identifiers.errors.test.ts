// A container's GTIN and serial (docs/scanning.md "Identifiers"): malformed identifiers are refused with the field
// named and change nothing (no container added, nothing stored); unknown or archived instances are 404; a barcode
// that names no container is 422.

import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { createOrder, orderBody } from '../../helpers/orders.js';
import { useHarness } from '../../helpers/use-harness.js';
import { addedInstance, addInstance, findBy, freshItem, GTIN, getIds, identifierRows, putIds } from './_identifiers.js';

const h = useHarness();
const token = () => h.a.member.token;
const instancesOf = async (itemId: string) =>
  (await h.call(token(), { method: 'GET', url: `/inventory-items/${itemId}` })).json().instances;

describe('container identifiers (errors)', () => {
  it('adding an instance with a wrong GTIN check digit or a bad serial adds nothing and names the field', async () => {
    const itemId = await freshItem(h);
    const rows = await identifierRows(h);
    const wrongDigit = await addInstance(h, token(), itemId, { quantity: '1', identifiers: { gtin: '09506000134353' } });
    expectValidation(wrongDigit, 'identifiers.gtin');
    const tooShort = await addInstance(h, token(), itemId, { quantity: '1', identifiers: { gtin: '12345' } });
    expectValidation(tooShort, 'identifiers.gtin');
    const longSerial = await addInstance(h, token(), itemId, { quantity: '1', identifiers: { serial_number: 'S'.repeat(21) } });
    expectValidation(longSerial, 'identifiers.serial_number');
    const badChars = await addInstance(h, token(), itemId, { quantity: '1', identifiers: { serial_number: 'a b#' } });
    expectValidation(badChars, 'identifiers.serial_number');
    const unknownKey = await addInstance(h, token(), itemId, { quantity: '1', identifiers: { lot: 'x' } });
    expectValidation(unknownKey, 'identifiers.lot');
    expect(await instancesOf(itemId)).toEqual([]);
    expect(await identifierRows(h)).toBe(rows);
  });

  it('PUT refuses a malformed GTIN or serial and a body without both keys, and keeps what was stored', async () => {
    const itemId = await freshItem(h);
    const instanceId = await addedInstance(h, token(), itemId, { quantity: '1', identifiers: { gtin: GTIN, serial_number: 'KEEP' } });
    expectValidation(await putIds(h, token(), itemId, instanceId, { gtin: 'abc', serial_number: null }), 'gtin');
    expectValidation(await putIds(h, token(), itemId, instanceId, { gtin: null, serial_number: 'ü' }), 'serial_number');
    const missing = await putIds(h, token(), itemId, instanceId, { gtin: GTIN });
    expectValidation(missing, 'serial_number');
    expect((await getIds(h, token(), itemId, instanceId)).json()).toMatchObject({ gtin: GTIN, serial_number: 'KEEP' });
  });

  it("an unknown instance, another item's instance, or an archived one cannot be set (404); reading an unknown one is 404", async () => {
    const itemId = await freshItem(h);
    const otherItem = await freshItem(h);
    const instanceId = await addedInstance(h, token(), itemId, { quantity: '1' });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expectError(await getIds(h, token(), itemId, unknown), 404, 'not_found');
    expectError(await getIds(h, token(), otherItem, instanceId), 404, 'not_found');
    expectError(await putIds(h, token(), otherItem, instanceId, { gtin: GTIN, serial_number: null }), 404, 'not_found');
    const archived = await h.call(token(), { method: 'POST', url: `/inventory-items/${itemId}/instances/${instanceId}/archive` });
    expect(archived.statusCode, archived.body).toBe(200);
    expectError(await putIds(h, token(), itemId, instanceId, { gtin: GTIN, serial_number: null }), 404, 'not_found');
    expect((await getIds(h, token(), itemId, instanceId)).json().gtin).toBeNull();
  });

  it('finding by a barcode that names no container (no serial, no GTIN with a lot) or is no GS1 barcode is 422', async () => {
    expectValidation(await findBy(h, token(), `(01)${GTIN}(17)271231`), 'barcode');
    expectValidation(await findBy(h, token(), '(10)LOT-ONLY'), 'barcode');
    expectValidation(await findBy(h, token(), 'K7QX2M9RTA'), 'barcode');
  });

  it('receiving into a lab that does not use instances refuses identifiers (there is no container to keep them)', async () => {
    const lab = h.a.legacyLab;
    const order = await createOrder(h, token(), orderBody(lab));
    const ordered = await h.call(token(), { method: 'PUT', url: `/order-requests/${order.id}`, payload: { status: 'ORDERED' } });
    expect(ordered.statusCode, ordered.body).toBe(200);
    const res = await h.call(token(), {
      method: 'POST',
      url: `/order-requests/${order.id}/receive`,
      payload: { identifiers: { gtin: GTIN } },
    });
    expectValidation(res, 'identifiers');
    expect((await h.call(token(), { method: 'GET', url: `/order-requests/${order.id}` })).json().status).toBe('ORDERED');
  });
});
