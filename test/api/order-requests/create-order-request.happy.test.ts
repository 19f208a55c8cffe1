import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import {
  counts,
  createOrder,
  DATETIME_RE,
  expectEnvelope,
  historyRows,
  ORDER_FIELDS,
  orderBody,
  orderEvents,
  orderRow,
  UUID_RE,
  userOf,
} from './_helpers.js';

const h = useHarness();

describe('POST /order-requests', () => {
  it('creates a request: 201, Location, exactly the contract fields plus app_url', async () => {
    const before = await counts(h);
    const admin = await userOf(h, h.a.admin.token);
    const body = {
      lab_id: h.a.legacyLab.id,
      type_id: h.a.legacyLab.typeId,
      name: 'Ethanol absolute',
      vendor_name: 'Sigma',
      catalog_number: 'E7023',
      price: { amount: '1250', currency: 'USD' },
      quantity: 3,
      notes: 'for the PCR',
      required_before: '2026-12-31',
    };
    const res = await h.call(h.a.admin.token, { method: 'POST', url: '/order-requests', payload: body });
    expect(res.statusCode, res.body).toBe(201);
    const o = res.json();
    expect(Object.keys(o).sort()).toEqual(ORDER_FIELDS);
    expect(res.headers.location).toBe(`/order-requests/${o.id}`);
    expect(res.headers['content-type']).toMatch(/^application\/json/);

    expect(o.id).toMatch(UUID_RE);
    expect(o).toMatchObject({
      status: 'CREATED',
      item_name: 'Ethanol absolute',
      vendor_name: 'Sigma',
      catalog_number: 'E7023',
      quantity: '3',
      unit_price: '12.50',
      total_price: { amount: '3750', currency: 'USD' },
      notes: 'for the PCR',
      is_urgent: false,
      app_url: `http://labstock.test/app/order-requests/${o.id}`,
    });
    expect(typeof o.quantity).toBe('string');
    expect(o.total_price).toEqual({ amount: '3750', currency: 'USD' });
    expect(o.requested_by).toEqual(admin);
    expect(o.created_by).toEqual(admin);
    expect(Object.keys(o.requested_by).sort()).toEqual(['email', 'first_name', 'id', 'last_name']);
    expect(o.requested_by.id).toBe(h.a.admin.id);
    expect(o.lab).toEqual({
      id: h.a.legacyLab.id,
      name: 'Legacy lab A',
      organization: { id: h.a.orgId, name: 'Org A' },
      uses_instances: false,
    });
    expect(o.type).toEqual({ id: h.a.legacyLab.typeId, name: 'Reagent' });
    expect(o.requested_at).toMatch(DATETIME_RE);
    expect(o.updated_at).toMatch(DATETIME_RE);
    expect(o.updated_at).toBe(o.requested_at);
    for (const f of ['name', 'lab_id', 'type_id', 'price', 'required_before', 'vendor_product_id', 'events', 'updated_by']) {
      expect(o).not.toHaveProperty(f);
    }

    const after = await counts(h);
    expect(after.orders).toBe(before.orders + 1);
    expect(after.events).toBe(before.events + 1);

    const row = await orderRow(h, o.id);
    expect(row).toMatchObject({ lab_id: h.a.legacyLab.id, status: 'CREATED', required_before: '2026-12-31', currency: 'USD' });
    const history = await historyRows(h, o.id);
    expect(history.map((r) => r.type)).toEqual(['CREATED']);
    expect(history[0]!.created_by).toBe(h.a.admin.id);

    const got = await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${o.id}` });
    expect(got.json()).toEqual(o);
  });

  it('writes one order-request.created event whose data.order_request is the response body', async () => {
    const o = await createOrder(h, h.a.admin.token, orderBody(h.a.migratedLab, { quantity: 4 }));
    const events = await orderEvents(h, 'created', o.id);
    expect(events).toHaveLength(1);
    const e = events[0]!;
    expectEnvelope(e, 'com.labstock.order-request.created', 'order_request');
    expect(e.event.data.order_request).toEqual(o);
    expect(e.row.organization_id).toBe(h.a.orgId);
    expect(e.row.lab_id).toBe(h.a.migratedLab.id);
    expect(e.event.data.order_request.lab.uses_instances).toBe(true);
    // No other order-request kinds for a fresh request.
    expect(await orderEvents(h, 'ordered', o.id)).toHaveLength(0);
    expect(await orderEvents(h, 'received', o.id)).toHaveLength(0);
  });

  it('sets requested_by and created_by to the token user (member)', async () => {
    const member = await userOf(h, h.a.member.token);
    const o = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab));
    expect(o.requested_by).toEqual(member);
    expect(o.created_by).toEqual(member);
    expect(o.requested_by.id).toBe(h.a.member.id);
  });

  it('lets an admin create in a lab they are not a member of', async () => {
    const o = await createOrder(h, h.a.admin.token, orderBody(h.a.otherLab));
    expect(o.lab.id).toBe(h.a.otherLab.id);
    expect(o.type).toEqual({ id: h.a.otherLab.typeId, name: 'Buffer' });
  });

  it.each([
    // [amount, currency, quantity, unit_price, total amount]
    ['1250', 'USD', 1, '12.50', '1250'],
    ['1250', 'USD', 7, '12.50', '8750'],
    ['12.50', 'USD', 2, '12.50', '2500'],
    ['12.5', 'USD', 3, '12.50', '3750'],
    ['12', 'USD', 1, '0.12', '12'],
    ['0', 'USD', 5, '0.00', '0'],
    ['1250', 'JPY', 2, '1250', '2500'],
    ['1250', 'KWD', 2, '1.250', '2500'],
    ['1.234', 'KWD', 3, '1.234', '3702'],
    ['999', 'EUR', 1000, '9.99', '999000'],
    ['999999999999999999', 'USD', 1000000000, '9999999999999999.99', '999999999999999999000000000'],
    ['0.10', 'USD', 3, '0.10', '30'],
  ] as const)('price %s %s x %i gives unit_price %s and total %s', async (amount, currency, quantity, unit, total) => {
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: orderBody(h.a.legacyLab, { price: { amount, currency }, quantity }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const o = res.json();
    expect(o.unit_price).toBe(unit);
    expect(o.total_price).toEqual({ amount: total, currency });
    expect(o.quantity).toBe(String(quantity));
  });

  it('accepts a known vendor_product_id and stores it', async () => {
    const productId = '0190a6f2-aaaa-7bbb-8ccc-000000000001';
    await h.deps.db
      .insertInto('vendor_products')
      .values({
        id: productId,
        item_name: 'Pipette tips',
        catalog_number: 'PT-1',
        vendor_name: 'Labstock Shop',
        unit_name: 'box',
        unit_symbol: 'bx',
        unit_amount: '1',
        price_amount: '990',
        currency: 'USD',
        created_at: new Date().toISOString(),
        search_text: 'pipette tips pt-1 labstock shop',
        updated_at: null,
      })
      .execute();
    const o = await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab, { vendor_product_id: productId }));
    expect(Object.keys(o).sort()).toEqual(ORDER_FIELDS);
    const row = await orderRow(h, o.id);
    expect(row?.vendor_product_id).toBe(productId);
  });

  it('trims name, vendor_name and catalog_number', async () => {
    const o = await createOrder(
      h,
      h.a.admin.token,
      orderBody(h.a.legacyLab, { name: '  Tris base ', vendor_name: ' Roth ', catalog_number: ' 4855.2 ' }),
    );
    expect(o).toMatchObject({ item_name: 'Tris base', vendor_name: 'Roth', catalog_number: '4855.2' });
  });

  it('leaves optional fields null when omitted', async () => {
    const o = await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab));
    expect(o.notes).toBeNull();
    const row = await orderRow(h, o.id);
    expect(row?.required_before).toBeNull();
    expect(row?.vendor_product_id).toBeNull();
  });
});
