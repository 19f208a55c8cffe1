import { describe, expect, it } from 'vitest';
import { CONTRACT_EVENT_TYPES } from '../../src/events/types.js';
import { eventMark, expectEventTypes, type KindCase, type KindResult, runKindCase } from '../helpers/events.js';
import { useHarness } from '../helpers/use-harness.js';

// Each event kind outside the shop, caused through the HTTP API: exactly the expected events are written, the
// kind's event once, with `data` holding only its key, matching the schema /openapi.json publishes for it, and
// carrying what the API itself shows for the resource. (The shop's kinds get their cases in their own file.)

const h = useHarness();

type LabName = 'migratedLab' | 'legacyLab';
let seq = 0;
const uniq = (prefix: string) => `${prefix} ${++seq}`;
const admin = () => h.a.admin.token;
const shelfId = () => h.a.migratedLab.locationIds[2]!;

async function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, token = admin()) {
  return h.call(token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
}

async function ok(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, token = admin()): Promise<any> {
  const res = await call(method, url, payload, token);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.statusCode === 204 ? null : res.json();
}

const result = (response: KindResult['response'], resourceId: string, labId: string): KindResult => ({
  response,
  resourceId,
  labId,
  organizationId: h.a.orgId,
});

/** An item made through the API: in the migrated lab with one instance on the shelf, or a legacy one. */
function newItem(lab: LabName, extra: Record<string, unknown> = {}): Promise<any> {
  const body =
    lab === 'migratedLab'
      ? {
          lab_id: h.a.migratedLab.id,
          name: uniq('Buffer'),
          type_id: h.a.migratedLab.typeId,
          vendor: 'Acme',
          catalog_number: uniq('CAT'),
          instances: [{ quantity: '1.5', location_id: shelfId() }],
        }
      : { lab_id: h.a.legacyLab.id, name: uniq('Solvent'), type_id: h.a.legacyLab.typeId, quantity: '3', location: { name: 'Cabinet 2' } };
  return ok('POST', '/inventory-items', { ...body, ...extra });
}

function newOrder(lab: LabName, extra: Record<string, unknown> = {}, token = admin()): Promise<any> {
  return ok(
    'POST',
    '/order-requests',
    {
      lab_id: h.a[lab].id,
      type_id: h.a[lab].typeId,
      name: uniq('Thing'),
      vendor_name: uniq('Vendor'),
      catalog_number: uniq('OR'),
      price: { amount: '1250', currency: 'USD' },
      quantity: 2,
      ...extra,
    },
    token,
  );
}

async function orderThrough(lab: LabName, statuses: string[], extra: Record<string, unknown> = {}): Promise<any> {
  let order = await newOrder(lab, extra);
  for (const status of statuses) order = await ok('PUT', `/order-requests/${order.id}`, { status });
  return order;
}

const without = (o: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

/** The payload is what the operation answered. */
const isResponse = (resource: any, r: KindResult) => expect(resource).toEqual(r.response.json());

const CASES: KindCase[] = [
  // inventory-item.created
  {
    type: 'inventory-item.created',
    cause: 'POST /inventory-items in a lab that uses instances',
    act: async () => {
      const res = await call('POST', '/inventory-items', {
        lab_id: h.a.migratedLab.id,
        name: uniq('Antibody'),
        type_id: h.a.migratedLab.typeId,
        instances: [{ quantity: '1.5', lot_number: 'L1', expiration_date: '2028-01-31', location_id: shelfId() }, { quantity: '0.25' }],
      });
      return result(res, res.json().id, h.a.migratedLab.id);
    },
    check: (item, r) => {
      isResponse(item, r);
      expect(item.instances).toHaveLength(2);
      expect(item.instances[0].location.pathNames).toEqual(['Room 101', 'Freezer A', 'Shelf 2']);
      expect(item.quantity).toMatch(/^1\.750*$/);
      expect(item.lab.uses_instances).toBe(true);
    },
  },
  {
    type: 'inventory-item.created',
    cause: 'POST /inventory-items in a legacy lab',
    act: async () => {
      const res = await call('POST', '/inventory-items', {
        lab_id: h.a.legacyLab.id,
        name: uniq('Acetone'),
        quantity: '4',
        location: { name: 'Cabinet 3' },
      });
      return result(res, res.json().id, h.a.legacyLab.id);
    },
    check: (item, r) => {
      isResponse(item, r);
      expect(item.instances).toEqual([]);
      expect(item.lab.uses_instances).toBe(false);
      expect(item.location).toEqual({ name: 'Cabinet 3' });
    },
  },
  {
    type: 'inventory-item.created',
    cause: 'receiving an order request for goods the lab does not have yet',
    setup: () => orderThrough('migratedLab', ['ORDERED']),
    act: async (_h, order) => {
      const res = await call('POST', `/order-requests/${order.id}/receive`, { lot_number: 'RCV-1', location_id: shelfId() });
      const [item] = await ok('GET', `/inventory-items?lab_id=${h.a.migratedLab.id}&per_page=100`).then((items: any[]) =>
        items.filter((i) => i.catalog_number === order.catalog_number),
      );
      expect(item).toBeDefined();
      return result(res, item.id, h.a.migratedLab.id);
    },
    emits: ['order-request.received', 'inventory-item.created'],
    check: async (item, r, order) => {
      expect(item).toEqual(await ok('GET', `/inventory-items/${r.resourceId}`));
      expect([item.name, item.vendor, item.catalog_number]).toEqual([order.item_name, order.vendor_name, order.catalog_number]);
      expect(item.instances).toHaveLength(1);
      expect(item.instances[0]).toMatchObject({ quantity: '2', lot_number: 'RCV-1' });
      expect(item.instances[0].location.name).toBe('Shelf 2');
    },
  },

  // inventory-item.updated
  {
    type: 'inventory-item.updated',
    cause: 'PATCH /inventory-items/{id}',
    setup: () => newItem('migratedLab'),
    act: async (_h, item) =>
      result(
        await call('PATCH', `/inventory-items/${item.id}`, { name: `${item.name} (renamed)`, cas_number: '64-17-5' }),
        item.id,
        h.a.migratedLab.id,
      ),
    check: (item, r, before) => {
      isResponse(item, r);
      expect(item.name).toBe(`${before.name} (renamed)`);
      expect(item.instances).toHaveLength(1);
    },
  },
  {
    type: 'inventory-item.updated',
    cause: "PUT /inventory-items/{id}/instances/{instanceId} (an instance's quantity)",
    setup: () => newItem('migratedLab'),
    act: async (_h, item) =>
      result(
        await call('PUT', `/inventory-items/${item.id}/instances/${item.instances[0].id}`, { quantity: '7' }),
        item.id,
        h.a.migratedLab.id,
      ),
    check: (item, r) => {
      isResponse(item, r);
      expect(item.instances.map((i: any) => i.quantity)).toEqual(['7']);
      expect(item.quantity).toBe('7');
    },
  },
  {
    type: 'inventory-item.updated',
    cause: "PATCH /inventory-items/{id}/instances/{instanceId} (an instance's lot)",
    setup: () => newItem('migratedLab'),
    act: async (_h, item) =>
      result(
        await call('PATCH', `/inventory-items/${item.id}/instances/${item.instances[0].id}`, { lot_number: 'NEW-LOT' }),
        item.id,
        h.a.migratedLab.id,
      ),
    check: (item, r) => {
      isResponse(item, r);
      expect(item.instances[0].lot_number).toBe('NEW-LOT');
    },
  },
  {
    type: 'inventory-item.updated',
    cause: 'POST /inventory-items/{id}/adjustments',
    setup: () => newItem('migratedLab'),
    act: async (_h, item) =>
      result(
        await call('POST', `/inventory-items/${item.id}/adjustments`, { delta: '-0.5', instance_id: item.instances[0].id }),
        item.id,
        h.a.migratedLab.id,
      ),
    check: (item, r) => {
      isResponse(item, r);
      expect(item.instances[0].quantity).toBe('1');
      expect(item.quantity).toBe('1');
    },
  },
  {
    type: 'inventory-item.updated',
    cause: 'PUT /inventory-items/{id} (quantity, legacy lab)',
    setup: () => newItem('legacyLab'),
    act: async (_h, item) => result(await call('PUT', `/inventory-items/${item.id}`, { quantity: '9.5' }), item.id, h.a.legacyLab.id),
    check: (item, r) => {
      isResponse(item, r);
      expect(item.quantity).toBe('9.5');
    },
  },
  {
    type: 'inventory-item.updated',
    cause: 'renaming the location its instance is stored in',
    setup: async () => {
      const location = await ok('POST', '/locations', { lab_id: h.a.migratedLab.id, name: uniq('Fridge') });
      const item = await newItem('migratedLab', { instances: [{ quantity: '1', location_id: location.id }] });
      return { location, item };
    },
    act: async (_h, { location, item }) =>
      result(await call('PATCH', `/locations/${location.id}`, { name: `${location.name} (new)` }), item.id, h.a.migratedLab.id),
    check: async (item, _r, { location }) => {
      expect(item.instances[0].location).toEqual({ name: `${location.name} (new)`, pathNames: [`${location.name} (new)`] });
      expect(item).toEqual(await ok('GET', `/inventory-items/${item.id}`));
    },
  },
  {
    type: 'inventory-item.updated',
    cause: 'receiving an order request into an existing item (new instance)',
    setup: async () => {
      const item = await newItem('migratedLab');
      const order = await orderThrough('migratedLab', ['ORDERED'], { vendor_name: item.vendor, catalog_number: item.catalog_number });
      return { item, order };
    },
    act: async (_h, { item, order }) =>
      result(await call('PUT', `/order-requests/${order.id}`, { status: 'RECEIVED' }), item.id, h.a.migratedLab.id),
    emits: ['order-request.received', 'inventory-item.updated'],
    check: async (item, _r, ctx) => {
      expect(item.instances).toHaveLength(2);
      expect(item.quantity).toMatch(/^3\.50*$/);
      expect(item).toEqual(await ok('GET', `/inventory-items/${ctx.item.id}`));
    },
  },

  // inventory-item.deleted
  {
    type: 'inventory-item.deleted',
    cause: 'DELETE /inventory-items/{id}',
    setup: async () => ok('GET', `/inventory-items/${(await newItem('migratedLab')).id}`),
    act: async (_h, item) => result(await call('DELETE', `/inventory-items/${item.id}`), item.id, h.a.migratedLab.id),
    check: async (deleted, _r, last) => {
      expect(deleted).toEqual(last);
      expect((await call('GET', `/inventory-items/${last.id}`)).statusCode).toBe(404);
    },
  },

  // type.*
  {
    type: 'type.created',
    cause: 'POST /types',
    act: async () => {
      const res = await call('POST', '/types', { lab_id: h.a.migratedLab.id, name: uniq('Enzyme') });
      return result(res, res.json().id, h.a.migratedLab.id);
    },
    check: (type, r) => {
      isResponse(type, r);
      expect(type.lab).toMatchObject({ id: h.a.migratedLab.id, uses_instances: true, organization: { id: h.a.orgId } });
    },
  },
  {
    type: 'type.updated',
    cause: 'PUT /types/{id}',
    setup: () => ok('POST', '/types', { lab_id: h.a.legacyLab.id, name: uniq('Kit') }),
    act: async (_h, type) => result(await call('PUT', `/types/${type.id}`, { name: `${type.name} v2` }), type.id, h.a.legacyLab.id),
    check: (type, r, before) => {
      isResponse(type, r);
      expect(type.name).toBe(`${before.name} v2`);
      expect(type.lab.uses_instances).toBe(false);
    },
  },
  {
    type: 'type.deleted',
    cause: 'DELETE /types/{id}',
    setup: () => ok('POST', '/types', { lab_id: h.a.legacyLab.id, name: uniq('Consumable') }),
    act: async (_h, type) => result(await call('DELETE', `/types/${type.id}`), type.id, h.a.legacyLab.id),
    check: (type, _r, created) => expect(type).toEqual(created),
  },

  // order-request.*
  {
    type: 'order-request.created',
    cause: 'POST /order-requests',
    act: async () => {
      const res = await call('POST', '/order-requests', {
        lab_id: h.a.legacyLab.id,
        type_id: h.a.legacyLab.typeId,
        name: uniq('Pipettes'),
        vendor_name: 'Eppendorf',
        catalog_number: uniq('EP'),
        price: { amount: '19.99', currency: 'USD' },
        quantity: 3,
        notes: 'urgent-ish',
      });
      return result(res, res.json().id, h.a.legacyLab.id);
    },
    check: (order, r) => {
      isResponse(order, r);
      expect(order.status).toBe('CREATED');
      expect(order.total_price).toEqual({ amount: '5997', currency: 'USD' });
    },
  },
  {
    type: 'order-request.ordered',
    cause: 'PUT status ORDERED from CREATED, by another user than the requester',
    setup: () => newOrder('legacyLab'),
    act: async (_h, order) =>
      result(await call('PUT', `/order-requests/${order.id}`, { status: 'ORDERED' }, h.a.member.token), order.id, h.a.legacyLab.id),
    check: (order, r) => {
      expect(without(order, 'events', 'updated_by')).toEqual(r.response.json());
      expect(order.status).toBe('ORDERED');
      expect(order.created_by.id).toBe(h.a.admin.id);
      expect(order.updated_by.id).toBe(h.a.member.id);
      expect(order.events.map((e: any) => e.type)).toEqual(['CREATED', 'ORDERED']);
      expect(order.events[1].created_by.id).toBe(h.a.member.id);
    },
  },
  {
    type: 'order-request.ordered',
    cause: 'PUT status ORDERED from APPROVED',
    setup: () => orderThrough('migratedLab', ['APPROVED']),
    act: async (_h, order) => result(await call('PUT', `/order-requests/${order.id}`, { status: 'ORDERED' }), order.id, h.a.migratedLab.id),
    check: (order, r) => {
      expect(without(order, 'events', 'updated_by')).toEqual(r.response.json());
      expect(order.events.map((e: any) => e.type)).toEqual(['CREATED', 'APPROVED', 'ORDERED']);
      expect(order.updated_by.id).toBe(h.a.admin.id);
    },
  },
  {
    type: 'order-request.received',
    cause: 'PUT status RECEIVED from ORDERED (legacy lab)',
    setup: () => orderThrough('legacyLab', ['ORDERED']),
    act: async (_h, order) => result(await call('PUT', `/order-requests/${order.id}`, { status: 'RECEIVED' }), order.id, h.a.legacyLab.id),
    emits: ['order-request.received', 'inventory-item.created'],
    check: (order, r) => {
      isResponse(order, r);
      expect(order.status).toBe('RECEIVED');
    },
  },
  {
    type: 'order-request.received',
    cause: 'POST /order-requests/{id}/receive from BACKORDERED',
    setup: () => orderThrough('migratedLab', ['ORDERED', 'BACKORDERED']),
    act: async (_h, order) =>
      result(
        await call('POST', `/order-requests/${order.id}/receive`, {
          lot_number: 'B-1',
          expiration_date: '2029-12-31',
          location_id: shelfId(),
        }),
        order.id,
        h.a.migratedLab.id,
      ),
    emits: ['order-request.received', 'inventory-item.created'],
    check: (order, r) => {
      isResponse(order, r);
      expect(order.status).toBe('RECEIVED');
    },
  },
  {
    type: 'order-request.deleted',
    cause: 'DELETE /order-requests/{id} by an admin',
    setup: async () => ok('GET', `/order-requests/${(await orderThrough('legacyLab', ['ORDERED'])).id}`),
    act: async (_h, order) => result(await call('DELETE', `/order-requests/${order.id}`), order.id, h.a.legacyLab.id),
    check: async (deleted, _r, last) => {
      expect(deleted).toEqual(last);
      expect((await call('GET', `/order-requests/${last.id}`)).statusCode).toBe(404);
    },
  },
  {
    type: 'order-request.deleted',
    cause: 'DELETE /order-requests/{id} by its requester (a member)',
    setup: async () => newOrder('migratedLab', {}, h.a.member.token),
    act: async (_h, order) =>
      result(await call('DELETE', `/order-requests/${order.id}`, undefined, h.a.member.token), order.id, h.a.migratedLab.id),
    check: (deleted, _r, created) => expect(deleted).toEqual(created),
  },
  {
    type: 'order-request.updated',
    cause: "PATCH /order-requests/{id} (Labstock's own kind; docs/ordering.md)",
    setup: () => newOrder('migratedLab'),
    act: async (_h, order) =>
      result(
        await call('PATCH', `/order-requests/${order.id}`, { invoice_number: 'INV-1', is_urgent: true }),
        order.id,
        h.a.migratedLab.id,
      ),
    check: (order, r) => {
      expect(without(order, 'events', 'updated_by')).toEqual(r.response.json());
      expect(order).toMatchObject({ invoice_number: 'INV-1', is_urgent: true, status: 'CREATED' });
      expect(order.events.map((e: any) => e.type)).toEqual(['CREATED', 'UPDATED']);
    },
  },
];

const SHOP_RESOURCES = ['sales-order.', 'sales-order-item.', 'shipment.'];

describe('every non-shop event kind, caused through the API', () => {
  it('has at least one case for each of the 10 contract kinds outside the shop and order-request.updated (the alert kinds: test/alerts/)', () => {
    const kinds = CONTRACT_EVENT_TYPES.filter((t) => !SHOP_RESOURCES.some((p) => t.startsWith(p)));
    expect(kinds).toHaveLength(10);
    expect([...new Set(CASES.map((c) => c.type))].sort()).toEqual([...kinds, 'order-request.updated'].sort());
  });

  for (const c of CASES) it(`${c.type}: ${c.cause}`, () => runKindCase(h, c));
});

describe('changes that emit no event', () => {
  it('status changes other than first ordering and receiving: APPROVED, BACKORDERED, re-ORDERED, CANCELLED, back to CREATED, the same status', async () => {
    const order = await newOrder('legacyLab');
    for (const status of ['APPROVED', 'APPROVED', 'CANCELLED', 'CREATED']) {
      const before = await eventMark(h);
      await ok('PUT', `/order-requests/${order.id}`, { status });
      await expectEventTypes(h, before, []);
    }
    await ok('PUT', `/order-requests/${order.id}`, { status: 'ORDERED' });
    for (const status of ['BACKORDERED', 'ORDERED', 'CANCELLED']) {
      const before = await eventMark(h);
      await ok('PUT', `/order-requests/${order.id}`, { status });
      await expectEventTypes(h, before, []);
    }
  });

  it('an edit that changes nothing, and reads', async () => {
    const item = await newItem('migratedLab');
    const before = await eventMark(h);
    await ok('PATCH', `/inventory-items/${item.id}`, { name: item.name });
    await ok('GET', `/inventory-items/${item.id}`);
    await ok('GET', '/types');
    await ok('GET', '/order-requests');
    await expectEventTypes(h, before, []);
  });
});
