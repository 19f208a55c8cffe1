// Ordering tasks (docs/ordering.md "Ordering, receiving in parts"): POST /order-requests/{id}/order, POST
// /order-requests/{id}/reject, receiving in parts with POST /order-requests/{id}/receive {quantity}, GET
// /order-requests/{id}/delivery, and the expected delivery date in PATCH. Happy paths, errors and security.
import { describe, expect, it } from 'vitest';
import { type ApprovalFixture, approvalFixture, setRule } from '../../helpers/approvals.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { eventMark, shortTypesSince } from '../../helpers/events.js';
import { useHarness } from '../../helpers/use-harness.js';
import { createOrder, historyRows, orderBody, orderEvents, orderIn } from './_helpers.js';

let f: ApprovalFixture;
const h = useHarness({}, async (h) => {
  f = await approvalFixture(h);
});

const post = (token: string | null, url: string, payload: unknown = {}, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'POST', url, payload: payload as any, headers });
const getJson = async (url: string, token = h.a.admin.token): Promise<any> => {
  const res = await h.call(token, { method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('POST /order-requests/{id}/order', () => {
  it('sets PO, confirmation and expected date, then orders: one UPDATED, one ORDERED, the ordered event carries the numbers', async () => {
    const order = await orderIn(h, h.a.member.token, h.a.migratedLab, 'CREATED');
    const mark = await eventMark(h);
    const body = { purchase_order_number: ' PO-2026-1142 ', confirmation_number: 'CN-889', expected_delivery_date: '2026-12-24' };
    const res = await post(h.a.member.token, `/order-requests/${order.id}/order`, body, { 'idempotency-key': 'order-once' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ORDERED', purchase_order_number: 'PO-2026-1142', confirmation_number: 'CN-889' });
    expect(res.json()).not.toHaveProperty('expected_delivery_date');
    // The same key again: the first answer, nothing done twice.
    const again = await post(h.a.member.token, `/order-requests/${order.id}/order`, body, { 'idempotency-key': 'order-once' });
    expect(again.json()).toEqual(res.json());
    expect((await historyRows(h, order.id)).map((r) => r.type)).toEqual(['CREATED', 'UPDATED', 'ORDERED']);
    expect((await historyRows(h, order.id))[1]!.comment).toBe(
      'purchase_order_number: null → "PO-2026-1142"; confirmation_number: null → "CN-889"; expected_delivery_date: null → "2026-12-24"',
    );
    expect(await shortTypesSince(h, mark)).toEqual(['order-request.updated', 'order-request.ordered']);
    const [ordered] = await orderEvents(h, 'ordered', order.id);
    expect(ordered!.event.data.order_request).toMatchObject({ purchase_order_number: 'PO-2026-1142', confirmation_number: 'CN-889' });
    expect(await getJson(`/order-requests/${order.id}/delivery`)).toMatchObject({
      expected_delivery_date: '2026-12-24',
      quantity: '2',
      received_quantity: '0',
      remaining_quantity: '2',
      item_id: null,
      receipts: [],
    });
  });

  it('refuses what PUT refuses (409 invalid_transition, approval_required) and bad dates (422), changing nothing', async () => {
    const received = await orderIn(h, h.a.member.token, h.a.migratedLab, 'RECEIVED');
    expectError(
      await post(h.a.member.token, `/order-requests/${received.id}/order`, { purchase_order_number: 'X' }),
      409,
      'invalid_transition',
    );
    expect((await getJson(`/order-requests/${received.id}`)).purchase_order_number).toBeNull();
    const created = await orderIn(h, h.a.member.token, h.a.migratedLab, 'CREATED');
    expectValidation(
      await post(h.a.member.token, `/order-requests/${created.id}/order`, { expected_delivery_date: '2026-02-30' }),
      'expected_delivery_date',
    );
    expectValidation(await post(h.a.member.token, `/order-requests/${created.id}/order`, { status: 'ORDERED' }), 'status');
    await setRule(h, h.a.admin.token, f.lab.id, { rule: 'all' });
    try {
      const waiting = await createOrder(h, f.requester.token, orderBody(f.lab));
      expectError(
        await post(f.requester.token, `/order-requests/${waiting.id}/order`, { purchase_order_number: 'PO-1' }),
        409,
        'approval_required',
      );
      expect(await getJson(`/order-requests/${waiting.id}`)).toMatchObject({ status: 'CREATED', purchase_order_number: null });
    } finally {
      await setRule(h, h.a.admin.token, f.lab.id, { rule: 'none' });
    }
  });

  it('security: 401 without a token, 404 for another organization and for a lab one does not belong to', async () => {
    const order = await orderIn(h, h.a.member.token, h.a.migratedLab, 'CREATED');
    expectError(await post(null, `/order-requests/${order.id}/order`), 401);
    expectError(await post(h.b.admin.token, `/order-requests/${order.id}/order`), 404, 'not_found');
    expectError(await post(h.a.outsider.token, `/order-requests/${order.id}/order`), 404, 'not_found');
    expectError(await h.call(h.b.admin.token, { method: 'GET', url: `/order-requests/${order.id}/delivery` }), 404, 'not_found');
    expect((await getJson(`/order-requests/${order.id}`)).status).toBe('CREATED');
  });
});

describe('POST /order-requests/{id}/reject', () => {
  it('an approver rejects with a reason: CANCELLED, the reason in the history, no event', async () => {
    const order = await createOrder(h, f.requester.token, orderBody(f.lab));
    const mark = await eventMark(h);
    const res = await post(f.approver.token, `/order-requests/${order.id}/reject`, { reason: '  Too expensive  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('CANCELLED');
    const last = (await historyRows(h, order.id)).at(-1)!;
    expect(last).toMatchObject({ type: 'CANCELLED', comment: 'Rejected: Too expensive', created_by: f.approver.id });
    expect(await shortTypesSince(h, mark)).toEqual([]);
    // An org admin too, from APPROVED.
    const approved = await orderIn(h, f.requester.token, f.lab, 'APPROVED');
    expect((await post(h.a.admin.token, `/order-requests/${approved.id}/reject`, { reason: 'No budget' })).statusCode).toBe(200);
  });

  it('errors: the requester 403 self_approval, a plain member 403 forbidden, an empty reason 422, once ordered 409', async () => {
    const order = await createOrder(h, f.requester.token, orderBody(f.lab));
    expectError(await post(f.requester.token, `/order-requests/${order.id}/reject`, { reason: 'mine' }), 403, 'self_approval');
    expectError(await post(f.plain.token, `/order-requests/${order.id}/reject`, { reason: 'no' }), 403, 'forbidden');
    expectValidation(await post(f.approver.token, `/order-requests/${order.id}/reject`, { reason: '   ' }), 'reason');
    expectValidation(await post(f.approver.token, `/order-requests/${order.id}/reject`, {}), 'reason');
    const ordered = await orderIn(h, f.requester.token, f.lab, 'ORDERED');
    const refused = expectError(
      await post(f.approver.token, `/order-requests/${ordered.id}/reject`, { reason: 'late' }),
      409,
      'invalid_transition',
    );
    expect(refused.allowed).toEqual(['BACKORDERED', 'RECEIVED', 'CANCELLED']);
    expect((await getJson(`/order-requests/${order.id}`)).status).toBe('CREATED');
    expect((await getJson(`/order-requests/${ordered.id}`)).status).toBe('ORDERED');
  });

  it('security: 401 without a token; another organization (even its admin) 404', async () => {
    const order = await createOrder(h, f.requester.token, orderBody(f.lab));
    expectError(await post(null, `/order-requests/${order.id}/reject`, { reason: 'x' }), 401);
    expectError(await post(f.stranger.token, `/order-requests/${order.id}/reject`, { reason: 'x' }), 404, 'not_found');
    expect((await getJson(`/order-requests/${order.id}`)).status).toBe('CREATED');
  });
});

describe('receiving in parts', () => {
  it('2 of 5 then 3: ORDERED until complete, the goods in at each part, received once, the item and places known', async () => {
    const order = await orderIn(h, h.a.member.token, h.a.migratedLab, 'ORDERED', { quantity: 5 });
    const [room, , shelf] = h.a.migratedLab.locationIds;
    const mark = await eventMark(h);
    const part = await post(h.a.member.token, `/order-requests/${order.id}/receive`, {
      quantity: 2,
      lot_number: 'GR3323',
      location_id: room,
    });
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json().status).toBe('ORDERED');
    const after = await getJson(`/order-requests/${order.id}/delivery`);
    expect(after).toMatchObject({ received_quantity: '2', remaining_quantity: '3' });
    expect(after.receipts).toEqual([
      expect.objectContaining({ quantity: '2', lot_number: 'GR3323', location: { name: 'Room 101', pathNames: ['Room 101'] } }),
    ]);
    const itemId = after.item_id as string;
    expect((await getJson(`/inventory-items/${itemId}`)).quantity).toBe('2');
    expect(await shortTypesSince(h, mark)).toEqual(['inventory-item.created', 'order-request.updated']);

    expectValidation(await post(h.a.member.token, `/order-requests/${order.id}/receive`, { quantity: 4 }), 'quantity');
    expectError(await h.call(h.a.member.token, { method: 'DELETE', url: `/order-requests/${order.id}` }), 409, 'conflict');

    const rest = await post(h.a.member.token, `/order-requests/${order.id}/receive`, { lot_number: 'GR3324', location_id: shelf });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().status).toBe('RECEIVED');
    expect(await orderEvents(h, 'received', order.id)).toHaveLength(1);
    expect((await historyRows(h, order.id)).map((r) => [r.type, r.comment])).toEqual([
      ['CREATED', null],
      ['ORDERED', null],
      ['PARTLY_RECEIVED', '2 of 5 received; 3 still to come'],
      ['RECEIVED', null],
    ]);
    const done = await getJson(`/order-requests/${order.id}/delivery`);
    expect(done).toMatchObject({ received_quantity: '5', remaining_quantity: '0', item_id: itemId });
    expect(done.receipts.map((r: any) => [r.quantity, r.lot_number, r.location?.name])).toEqual([
      ['2', 'GR3323', 'Room 101'],
      ['3', 'GR3324', 'Shelf 2'],
    ]);
    const item = await getJson(`/inventory-items/${itemId}`);
    expect(item.quantity).toBe('5');
    // The item's history tells of both receipts, with their lot, place and request.
    const history = await getJson(`/inventory-items/${itemId}/history`);
    expect(history.map((c: any) => [c.field, c.new_value, c.lot_number, c.location?.name, c.order_request_id])).toEqual([
      ['received', '2', 'GR3323', 'Room 101', order.id],
      ['instance.added', '3', 'GR3324', 'Shelf 2', order.id],
    ]);
    expectError(await post(h.a.member.token, `/order-requests/${order.id}/receive`, { quantity: 1 }), 409, 'invalid_transition');
  });

  it('a part of a request not ordered yet is refused as receiving it would be (409), and nothing comes in', async () => {
    const order = await orderIn(h, h.a.member.token, h.a.migratedLab, 'CREATED', { quantity: 5 });
    expectError(await post(h.a.member.token, `/order-requests/${order.id}/receive`, { quantity: 2 }), 409, 'invalid_transition');
    expect((await getJson(`/order-requests/${order.id}/delivery`)).receipts).toEqual([]);
  });

  it('security: another organization cannot receive a part (404) and nothing comes in', async () => {
    const order = await orderIn(h, h.a.member.token, h.a.migratedLab, 'ORDERED', { quantity: 5 });
    expectError(await post(h.b.admin.token, `/order-requests/${order.id}/receive`, { quantity: 1 }), 404, 'not_found');
    expect((await getJson(`/order-requests/${order.id}/delivery`)).received_quantity).toBe('0');
  });
});

describe('PATCH /order-requests/{id} expected_delivery_date', () => {
  it('sets and clears it, each an UPDATED entry; a non-date is 422', async () => {
    const order = await orderIn(h, h.a.member.token, h.a.legacyLab, 'ORDERED');
    const patch = (body: unknown) =>
      h.call(h.a.member.token, { method: 'PATCH', url: `/order-requests/${order.id}`, payload: body as any });
    expect((await patch({ expected_delivery_date: '2027-01-15' })).statusCode).toBe(200);
    expect((await getJson(`/order-requests/${order.id}/delivery`)).expected_delivery_date).toBe('2027-01-15');
    expect((await patch({ expected_delivery_date: null })).statusCode).toBe(200);
    expect((await getJson(`/order-requests/${order.id}/delivery`)).expected_delivery_date).toBeNull();
    expectValidation(await patch({ expected_delivery_date: 'soon' }), 'expected_delivery_date');
    expect((await historyRows(h, order.id)).filter((r) => r.type === 'UPDATED').map((r) => r.comment)).toEqual([
      'expected_delivery_date: null → "2027-01-15"',
      'expected_delivery_date: "2027-01-15" → null',
    ]);
  });
});
