// Every fulfilment action through an operator token leaves one audit row (docs/decisions/0004-operators.md): who,
// what, which line or shipment, the outcome, the token and the request id. A change and its row commit together:
// no change is ever made without its row, and a refused action leaves its row with the error code and no change.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { h, MISSING_ID, placeOne, shop, useShop } from './_setup.js';

let seq = 0;
/** An operator call with a known request id, and the audit rows written under that id. */
async function act(method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) {
  const requestId = `audit-${++seq}-${Date.now()}`;
  const res = await h.call(shop.operator.token, { method, url, headers: { 'x-request-id': requestId }, ...(payload ? { payload } : {}) });
  expect(res.headers['x-request-id']).toBe(requestId);
  const rows = await h.deps.db.selectFrom('operator_audit').selectAll().where('request_id', '=', requestId).execute();
  return { res, rows, requestId };
}

/** What a refusal must leave untouched. */
const state = async () => ({
  lines: await h.deps.db.selectFrom('sales_order_items').selectAll().orderBy('id').execute(),
  shipments: await h.deps.db.selectFrom('shipments').selectAll().orderBy('id').execute(),
  requests: await h.deps.db.selectFrom('order_requests').selectAll().orderBy('id').execute(),
  events: (await h.deps.db.selectFrom('events').select('id').execute()).length,
  items: (await h.deps.db.selectFrom('inventory_items').select('id').execute()).length,
});

describe('operator audit trail', () => {
  useShop();
  const who = () => ({ operator_id: shop.operator.id, token_id: shop.operator.tokenId, via: 'api' });

  it('lists, ships, delivers, backorders and cancels: one row each, with the operator, line, shipment and token', async () => {
    const a = await placeOne(h, h.a.member.token, h.a.legacyLab, shop.products.M0530S!, 2);
    const b = await placeOne(h, h.b.member.token, h.b.legacyLab, shop.products.A9539!, 1);

    const list = await act('GET', '/shop/order-items?status=PLACED&per_page=100');
    expect(list.res.statusCode).toBe(200);
    expect(list.rows).toEqual([
      expect.objectContaining({ ...who(), action: 'lines.list', outcome: 'ok', sales_order_item_id: null, shipment_id: null }),
    ]);
    const listed = JSON.parse(list.rows[0]!.detail!) as { line_ids: string[]; statuses: string[] };
    expect(listed.statuses).toEqual(['PLACED']);
    expect(listed.line_ids).toEqual(list.res.json().map((l: { id: string }) => l.id));
    expect(listed.line_ids).toEqual(expect.arrayContaining([a.line.id, b.line.id]));

    const ship = await act('POST', `/shop/order-items/${a.line.id}/shipments`, { carrier: 'UPS', tracking: '1Z1', quantity: 2 });
    expect(ship.res.statusCode, ship.res.body).toBe(201);
    const shipmentId = ship.res.json().id;
    expect(ship.rows).toEqual([
      expect.objectContaining({ ...who(), action: 'line.ship', outcome: 'ok', sales_order_item_id: a.line.id, shipment_id: shipmentId }),
    ]);
    expect(JSON.parse(ship.rows[0]!.detail!)).toMatchObject({ carrier: 'UPS', tracking: '1Z1', quantity: 2 });

    const deliver = await act('POST', `/shop/shipments/${shipmentId}/deliver`, {});
    expect(deliver.res.statusCode, deliver.res.body).toBe(200);
    expect(deliver.rows).toEqual([
      expect.objectContaining({
        ...who(),
        action: 'shipment.deliver',
        outcome: 'ok',
        sales_order_item_id: a.line.id,
        shipment_id: shipmentId,
      }),
    ]);

    const backorder = await act('POST', `/shop/order-items/${b.line.id}/backorder`, { expected_at: '2027-04-01' });
    expect(backorder.res.statusCode, backorder.res.body).toBe(200);
    expect(backorder.rows).toEqual([
      expect.objectContaining({ ...who(), action: 'line.backorder', outcome: 'ok', sales_order_item_id: b.line.id, shipment_id: null }),
    ]);
    expect(JSON.parse(backorder.rows[0]!.detail!)).toEqual({ expected_at: '2027-04-01' });

    const cancel = await act('POST', `/shop/order-items/${b.line.id}/cancel`, { reason: 'supplier gone' });
    expect(cancel.res.statusCode, cancel.res.body).toBe(200);
    expect(cancel.rows).toEqual([
      expect.objectContaining({ ...who(), action: 'line.cancel', outcome: 'ok', sales_order_item_id: b.line.id }),
    ]);
    expect(JSON.parse(cancel.rows[0]!.detail!)).toEqual({ reason: 'supplier gone' });

    // The token's last use is what the audit rows name.
    const token = await h.deps.db
      .selectFrom('operator_tokens')
      .select('last_used_at')
      .where('id', '=', shop.operator.tokenId)
      .executeTakeFirstOrThrow();
    expect(token.last_used_at).not.toBeNull();
  });

  it('a refused action leaves its row with the error code as outcome, and no change', async () => {
    const { line } = await placeOne(h, h.a.member.token, h.a.legacyLab, shop.products.M0530S!, 1);
    const shipped = await act('POST', `/shop/order-items/${line.id}/shipments`, { carrier: 'DHL', tracking: 'D1', quantity: 1 });
    const shipmentId = shipped.res.json().id;
    const before = await state();
    const refusals: [string, string, Record<string, unknown>, number, string, string | null, string | null][] = [
      [
        `/shop/order-items/${line.id}/shipments`,
        'line.ship',
        { carrier: 'DHL', tracking: 'D2', quantity: 1 },
        409,
        'conflict',
        line.id,
        null,
      ],
      [
        `/shop/order-items/${line.id}/shipments`,
        'line.ship',
        { carrier: ' ', tracking: 'D2', quantity: 1 },
        422,
        'validation_failed',
        line.id,
        null,
      ],
      [`/shop/order-items/${line.id}/backorder`, 'line.backorder', {}, 409, 'conflict', line.id, null],
      [`/shop/order-items/${line.id}/cancel`, 'line.cancel', {}, 409, 'conflict', line.id, null],
      [`/shop/order-items/${MISSING_ID}/cancel`, 'line.cancel', {}, 404, 'not_found', MISSING_ID, null],
      [
        `/shop/shipments/${shipmentId}/deliver`,
        'shipment.deliver',
        { delivered_at: '2000-01-01T00:00:00Z' },
        422,
        'validation_failed',
        line.id,
        shipmentId,
      ],
      [`/shop/shipments/${MISSING_ID}/deliver`, 'shipment.deliver', {}, 404, 'not_found', null, MISSING_ID],
    ];
    for (const [url, action, payload, status, code, lineId, shipment] of refusals) {
      const r = await act('POST', url, payload);
      expect(r.res.statusCode, `${url} ${r.res.body}`).toBe(status);
      expect(r.res.json().code).toBe(code);
      expect(r.rows, url).toEqual([
        expect.objectContaining({ ...who(), action, outcome: code, sales_order_item_id: lineId, shipment_id: shipment }),
      ]);
    }
    expect(await state()).toEqual(before);
  });

  it('no change and no data without its audit row: when the row cannot be written, the action rolls back', async () => {
    const { line, requestId } = await placeOne(h, h.a.member.token, h.a.legacyLab, shop.products.M0530S!, 2);
    const before = await state();
    const rows = (await h.deps.db.selectFrom('operator_audit').select('id').execute()).length;
    // The audit table is out of reach for a moment; the same on both databases.
    await sql`alter table operator_audit rename to operator_audit_away`.execute(h.deps.db);
    try {
      for (const [url, payload] of [
        [`/shop/order-items/${line.id}/shipments`, { carrier: 'UPS', tracking: 'X', quantity: 1 }],
        [`/shop/order-items/${line.id}/backorder`, { expected_at: '2027-05-01' }],
        [`/shop/order-items/${line.id}/cancel`, { reason: 'r' }],
      ] as const) {
        const res = await h.call(shop.operator.token, { method: 'POST', url, payload });
        expect(res.statusCode, `${url} ${res.body}`).toBe(500);
        expect(res.body).not.toContain(requestId);
      }
      const list = await h.call(shop.operator.token, { method: 'GET', url: '/shop/order-items' });
      expect(list.statusCode).toBe(500);
      expect(list.body).not.toContain(line.id);
    } finally {
      await sql`alter table operator_audit_away rename to operator_audit`.execute(h.deps.db);
    }
    expect(await state()).toEqual(before);
    expect(await h.deps.db.selectFrom('operator_audit').select('id').execute()).toHaveLength(rows);
  });
});
