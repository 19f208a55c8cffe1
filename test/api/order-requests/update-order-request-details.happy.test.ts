import { describe, expect, it } from 'vitest';
import { eventMark, eventsSince, expectOneEvent } from '../../helpers/events.js';
import { checkoutRequests, type ShopFixture, setupShop, shopRequest } from '../../helpers/shop.js';
import { useHarness } from '../../helpers/use-harness.js';
import { createOrder, ORDER_FIELDS, orderBody, putStatus } from './_helpers.js';

// PATCH /order-requests/{id} (docs/ordering.md, docs/product.md §13): every detail field round-trips, shows up in the
// order-request.updated event (valid against its published schema) and in the history; status events are untouched;
// the shop fills the PO number, the unit size and the tracking number.

let shop: ShopFixture;
const h = useHarness({}, async (h) => {
  shop = await setupShop(h);
});

const patch = (token: string, id: string, payload: Record<string, unknown>) =>
  h.call(token, { method: 'PATCH', url: `/order-requests/${id}`, payload });

const history = (id: string) =>
  h.deps.db.selectFrom('order_request_events').selectAll().where('order_request_id', '=', id).orderBy('created_at').orderBy('id').execute();

const TEXT_VALUES = {
  notes: 'Keep cold',
  unit_size: '500 mL',
  invoice_number: 'INV-2026-001',
  requisition_number: 'REQ-77',
  confirmation_number: 'CONF-9',
  tracking_number: '1Z999AA10123456784',
  purchase_order_number: 'PO-4411',
  shipping_and_handling: '12.50 USD',
  details: 'Deliver to room 2.14',
};

describe('PATCH /order-requests/{id}', () => {
  for (const [field, value] of Object.entries(TEXT_VALUES)) {
    it(`${field}: round-trips, in the response, GET, the updated event and the history`, async () => {
      const order = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab));
      const before = await eventMark(h);
      const res = await patch(h.a.member.token, order.id, { [field]: `  ${value} ` });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(ORDER_FIELDS);
      expect(body[field]).toBe(value);
      expect(body.status).toBe('CREATED');
      expect((await h.call(h.a.member.token, { method: 'GET', url: `/order-requests/${order.id}` })).json()[field]).toBe(value);

      const { resource, row } = await expectOneEvent(h, 'order-request.updated', before, {
        resourceId: order.id,
        labId: h.a.legacyLab.id,
        organizationId: h.a.orgId,
      });
      expect((await eventsSince(h, before)).map((e) => e.row.type)).toEqual([row.type]);
      expect(resource[field]).toBe(value);
      expect(resource.updated_by.id).toBe(h.a.member.id);
      const last = resource.events.at(-1);
      expect(last).toMatchObject({ type: 'UPDATED', comment: `${field}: null → ${JSON.stringify(value)}` });
      expect(last.created_by.id).toBe(h.a.member.id);
      expect((await history(order.id)).map((e) => e.type)).toEqual(['CREATED', 'UPDATED']);
    });
  }

  it('is_urgent and spend_tracking_code ({name}) round-trip; several fields are one history entry and one event', async () => {
    const code = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/labs/${h.a.legacyLab.id}/spend-tracking-codes`,
      payload: { name: 'GRANT-1' },
    });
    expect(code.statusCode, code.body).toBe(201);
    const order = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab));
    expect(order).toMatchObject({ is_urgent: false, spend_tracking_code: null });
    const before = await eventMark(h);
    const res = await patch(h.a.member.token, order.id, {
      is_urgent: true,
      spend_tracking_code: { name: 'GRANT-1' },
      invoice_number: 'I-1',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ is_urgent: true, spend_tracking_code: { name: 'GRANT-1' }, invoice_number: 'I-1' });
    const { resource } = await expectOneEvent(h, 'order-request.updated', before, { resourceId: order.id });
    expect(resource).toMatchObject({ is_urgent: true, spend_tracking_code: { name: 'GRANT-1' } });
    expect(resource.events.at(-1).comment).toBe(
      'invoice_number: null → "I-1"; is_urgent: false → true; spend_tracking_code: null → "GRANT-1"',
    );
    expect((await history(order.id)).map((e) => e.type)).toEqual(['CREATED', 'UPDATED']);
  });

  it('null and "" clear a field; the history records the old value', async () => {
    const order = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab, { notes: 'old note' }));
    await patch(h.a.member.token, order.id, { invoice_number: 'X-1', spend_tracking_code: null });
    const res = await patch(h.a.member.token, order.id, { notes: null, invoice_number: '' });
    expect(res.json()).toMatchObject({ notes: null, invoice_number: null });
    expect((await history(order.id)).at(-1)!.comment).toBe('notes: "old note" → null; invoice_number: "X-1" → null');
  });

  it('changes nothing, writes no history and emits nothing for an empty body or the values it already has', async () => {
    const order = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab, { notes: 'same' }));
    const before = await eventMark(h);
    for (const body of [{}, { notes: 'same', is_urgent: false, spend_tracking_code: null }]) {
      const res = await patch(h.a.member.token, order.id, body);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().updated_at).toBe(order.updated_at);
    }
    expect(await eventsSince(h, before)).toEqual([]);
    expect((await history(order.id)).map((e) => e.type)).toEqual(['CREATED']);
  });

  it('works in every status (an invoice arrives after the goods) and never emits a status event', async () => {
    const order = await createOrder(h, h.a.member.token, orderBody(h.a.migratedLab));
    for (const s of ['ORDERED', 'RECEIVED']) expect((await putStatus(h, h.a.member.token, order.id, s)).statusCode).toBe(200);
    const before = await eventMark(h);
    const res = await patch(h.a.member.token, order.id, { invoice_number: 'LATE-1' });
    expect(res.json()).toMatchObject({ status: 'RECEIVED', invoice_number: 'LATE-1' });
    expect((await eventsSince(h, before)).map((e) => e.row.type)).toEqual(['com.labstock.order-request.updated']);
  });

  it('PUT with a status keeps emitting exactly the contract events (no updated)', async () => {
    const order = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab));
    const before = await eventMark(h);
    expect((await putStatus(h, h.a.member.token, order.id, 'ORDERED')).statusCode).toBe(200);
    expect((await eventsSince(h, before)).map((e) => e.row.type)).toEqual(['com.labstock.order-request.ordered']);
  });
});

describe('the shop fills details', () => {
  it('checkout: purchase_order_number from the sales order, unit_size from the product; shipping: tracking_number', async () => {
    const requestId = await shopRequest(h, h.a.member.token, h.a.legacyLab, shop.products.M0530S!);
    const before = await eventMark(h);
    const res = await checkoutRequests(h, h.a.member.token, h.a.legacyLab.id, [requestId], {
      payment_method: 'PURCHASE_ORDER',
      purchase_order_number: 'PO-SHOP-1',
    });
    expect(res.statusCode, res.body).toBe(201);
    const { resource } = await expectOneEvent(h, 'order-request.updated', before, { resourceId: requestId });
    expect(resource).toMatchObject({ purchase_order_number: 'PO-SHOP-1', unit_size: '100 U', status: 'CREATED' });
    const ordered = await expectOneEvent(h, 'order-request.ordered', before, { resourceId: requestId });
    expect(ordered.resource).toMatchObject({ purchase_order_number: 'PO-SHOP-1', unit_size: '100 U', status: 'ORDERED' });
    expect((await history(requestId)).map((e) => e.type)).toEqual(['CREATED', 'UPDATED', 'ORDERED']);

    const lineId = res.json().items[0].id;
    for (const tracking of ['TRK-1', 'TRK-2']) {
      const mark = await eventMark(h);
      const shipped = await h.call(shop.operator.token, {
        method: 'POST',
        url: `/shop/order-items/${lineId}/shipments`,
        payload: { carrier: 'UPS', tracking, quantity: 1 },
      });
      expect(shipped.statusCode, shipped.body).toBe(201);
      const updated = await expectOneEvent(h, 'order-request.updated', mark, { resourceId: requestId });
      expect(updated.resource.events.at(-1).comment).toContain(`shipped by UPS: tracking_number:`);
    }
    const got = await h.call(h.a.member.token, { method: 'GET', url: `/order-requests/${requestId}` });
    expect(got.json().tracking_number).toBe('TRK-1, TRK-2');
  });
});
