import { describe, expect, it } from 'vitest';
import { type KindCase, type KindResult, runKindCase } from '../helpers/events.js';
import { placeOne, type ShopFixture, setupShop, shopRequest } from '../helpers/shop.js';
import { useHarness } from '../helpers/use-harness.js';

// The shop's seven event kinds, each caused through the HTTP API (checkout by a lab user, fulfilment by an
// operator's token): exactly the expected events, the kind's own once, valid against the published schema.

let shop: ShopFixture;
const h = useHarness({}, async (h) => {
  shop = await setupShop(h);
});

const lab = () => h.a.migratedLab;
const op = (method: 'POST', url: string, payload: Record<string, unknown> = {}) => h.call(shop.operator.token, { method, url, payload });
const result = (response: KindResult['response'], resourceId: string): KindResult => ({
  response,
  resourceId,
  labId: lab().id,
  organizationId: h.a.orgId,
});

interface Placed {
  line: any;
  requestId: string;
  order: any;
}
const placed = (quantity = 2) => placeOne(h, h.a.member.token, lab(), shop.products.M0530S!, quantity);
async function shipped(quantity = 2): Promise<Placed & { shipmentId: string }> {
  const p = await placed(quantity);
  const res = await op('POST', `/shop/order-items/${p.line.id}/shipments`, { carrier: 'UPS', tracking: '1Z', quantity });
  expect(res.statusCode, res.body).toBe(201);
  return { ...p, shipmentId: res.json().id };
}

const cases: KindCase<any>[] = [
  {
    type: 'sales-order.placed',
    cause: 'POST /shop/orders (two requests)',
    setup: async () => [
      await shopRequest(h, h.a.member.token, lab(), shop.products.M0530S!),
      await shopRequest(h, h.a.member.token, lab(), shop.products.A9539!),
    ],
    act: async (_h, ids: string[]) => {
      const response = await h.call(h.a.member.token, {
        method: 'POST',
        url: '/shop/orders',
        payload: { lab_id: lab().id, order_request_ids: ids, payment_method: 'CREDIT_CARD' },
      });
      return result(response, response.json().id);
    },
    emits: ['sales-order.placed', 'order-request.updated', 'order-request.updated', 'order-request.ordered', 'order-request.ordered'],
    check: (resource, r) => {
      expect(resource).toEqual(r.response.json());
      expect(resource.items.map((i: any) => i.request.status)).toEqual(['ORDERED', 'ORDERED']);
      expect(resource.lab.uses_instances).toBe(true);
    },
  },
  {
    type: 'shipment.created',
    cause: 'POST /shop/order-items/{id}/shipments (part of the line)',
    setup: () => placed(3),
    act: async (_h, p: Placed) => {
      const response = await op('POST', `/shop/order-items/${p.line.id}/shipments`, { carrier: 'DHL', tracking: 'JD1', quantity: 1 });
      return result(response, response.json().id);
    },
    emits: ['order-request.updated', 'shipment.created', 'sales-order-item.shipped'],
    check: (resource, r, p: Placed) => {
      expect(resource).toEqual(r.response.json());
      expect(resource).toMatchObject({
        quantity: 1,
        delivered_at: null,
        sales_order_item_id: p.line.id,
        sales_order: { id: p.order.id, key: p.order.key },
      });
    },
  },
  {
    type: 'sales-order-item.shipped',
    cause: 'POST /shop/order-items/{id}/shipments (the whole line)',
    setup: () => placed(2),
    act: async (_h, p: Placed) =>
      result(await op('POST', `/shop/order-items/${p.line.id}/shipments`, { carrier: 'DHL', tracking: 'JD2', quantity: 2 }), p.line.id),
    emits: ['order-request.updated', 'shipment.created', 'sales-order-item.shipped'],
    check: (resource, r) => {
      expect(resource.status).toBe('SHIPPED');
      expect(resource.shipments).toEqual([expect.objectContaining({ id: r.response.json().id, quantity: 2 })]);
      expect(resource.request.lab.uses_instances).toBe(true);
    },
  },
  {
    type: 'shipment.delivered',
    cause: 'POST /shop/shipments/{id}/deliver (one of two shipments)',
    setup: async () => {
      const p = await placed(2);
      const first = (await op('POST', `/shop/order-items/${p.line.id}/shipments`, { carrier: 'UPS', tracking: 'A', quantity: 1 })).json();
      await op('POST', `/shop/order-items/${p.line.id}/shipments`, { carrier: 'UPS', tracking: 'B', quantity: 1 });
      return { ...p, shipmentId: first.id };
    },
    act: async (_h, p: Placed & { shipmentId: string }) =>
      result(await op('POST', `/shop/shipments/${p.shipmentId}/deliver`), p.shipmentId),
    check: (resource, r) => expect(resource).toEqual(r.response.json()),
  },
  {
    type: 'sales-order-item.delivered',
    cause: 'POST /shop/shipments/{id}/deliver (the last one): the request is received into inventory',
    setup: () => shipped(2),
    act: async (_h, p: Placed & { shipmentId: string }) => result(await op('POST', `/shop/shipments/${p.shipmentId}/deliver`), p.line.id),
    emits: ['shipment.delivered', 'sales-order-item.delivered', 'order-request.received', 'inventory-item.created'],
    check: (resource, _r, p: Placed) =>
      expect(resource).toMatchObject({ status: 'DELIVERED', request: { id: p.requestId, status: 'RECEIVED' } }),
  },
  {
    type: 'sales-order-item.backordered',
    cause: 'POST /shop/order-items/{id}/backorder',
    setup: () => placed(2),
    act: async (_h, p: Placed) =>
      result(await op('POST', `/shop/order-items/${p.line.id}/backorder`, { expected_at: '2027-03-01' }), p.line.id),
    check: (resource, r) => {
      // The tenant's event carries the contract's line; the operator's response is the fulfilment view of it.
      expect(r.response.json()).toMatchObject({
        id: resource.id,
        status: resource.status,
        estimated_shipment_date: resource.estimated_shipment_date,
      });
      expect(resource).toMatchObject({ status: 'BACKORDERED', request: { status: 'BACKORDERED', backordered_expected_at: '2027-03-01' } });
    },
  },
  {
    type: 'sales-order-item.cancelled',
    cause: 'POST /shop/order-items/{id}/cancel',
    setup: () => placed(2),
    act: async (_h, p: Placed) => result(await op('POST', `/shop/order-items/${p.line.id}/cancel`, { reason: 'out of stock' }), p.line.id),
    check: (resource, r) => {
      expect(r.response.json()).toMatchObject({ id: resource.id, status: resource.status, cancel_reason: 'out of stock' });
      expect(resource).toMatchObject({ status: 'CANCELLED', request: { status: 'CANCELLED' } });
    },
  },
];

describe('shop event kinds, each from its real operation', () => {
  for (const c of cases) it(`${c.type}: ${c.cause}`, () => runKindCase(h, c));
});
