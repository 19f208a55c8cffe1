import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { counts, createOrder, expectNotFound, MISSING_ID, orderBody, orderRow } from './_helpers.js';

// PATCH /order-requests/{id} refusals: each with the standard error body, and nothing written.

let orderId: string;
const h = useHarness({}, async (h) => {
  orderId = (await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab))).id;
  const eur = await h.call(h.a.admin.token, {
    method: 'POST',
    url: `/labs/${h.a.legacyLab.id}/spend-tracking-codes`,
    payload: { name: 'EURO-GRANT', budget: { amount: '100.00', currency: 'EUR' } },
  });
  expect(eur.statusCode, eur.body).toBe(201);
});

async function refusedWith(payload: unknown, id = orderId, contentType?: string) {
  const before = await counts(h);
  const row = id === orderId ? await orderRow(h, id) : undefined;
  const res = await h.call(h.a.member.token, {
    method: 'PATCH',
    url: `/order-requests/${id}`,
    ...(contentType
      ? { headers: { 'content-type': contentType }, payload: String(payload) }
      : { payload: payload as Record<string, unknown> }),
  });
  expect(await counts(h)).toEqual(before);
  if (row) expect(await orderRow(h, id)).toEqual(row);
  return res;
}

describe('PATCH /order-requests/{id} errors', () => {
  it('422 naming an unknown field, status included (the status changes only with PUT)', async () => {
    expectValidation(await refusedWith({ status: 'ORDERED' }), 'status');
    expectValidation(await refusedWith({ invoice_number: 'A', colour: 'red' }), 'colour');
  });

  it('422 for wrong types and over-long values', async () => {
    expectValidation(await refusedWith({ is_urgent: 'yes' }), 'is_urgent');
    expectValidation(await refusedWith({ invoice_number: 12 }), 'invoice_number');
    expectValidation(await refusedWith({ invoice_number: 'x'.repeat(201) }), 'invoice_number');
    expectValidation(await refusedWith({ spend_tracking_code: 'GRANT' }), 'spend_tracking_code');
    expectValidation(await refusedWith({ spend_tracking_code: { name: 'A', id: 'x' } }), 'spend_tracking_code.id');
  });

  it("422 for a spend tracking code the lab does not have, or whose budget is in another currency than the request's", async () => {
    expectValidation(await refusedWith({ spend_tracking_code: { name: 'NOPE' } }), 'spend_tracking_code.name');
    const body = expectValidation(await refusedWith({ spend_tracking_code: { name: 'EURO-GRANT' } }), 'spend_tracking_code.name');
    expect(body.message).toContain('EUR');
  });

  it('404 for an id that does not exist, 422 for one that is not a uuid', async () => {
    expectNotFound(await refusedWith({ notes: 'x' }, MISSING_ID));
    expectValidation(await refusedWith({ notes: 'x' }, 'not-a-uuid'), 'id');
  });

  it('400 for malformed JSON, 415 for a body that is not JSON', async () => {
    expectError(await refusedWith('{"notes":', orderId, 'application/json'), 400, 'invalid_json');
    expectError(await refusedWith('notes=x', orderId, 'text/plain'), 415, 'unsupported_media_type');
  });
});
