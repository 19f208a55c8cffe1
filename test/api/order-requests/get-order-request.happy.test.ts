import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { createOrder, moveThrough, ORDER_FIELDS, orderBody, userOf } from './_helpers.js';

const h = useHarness();

describe('GET /order-requests/{id}', () => {
  it('returns the request exactly as created: contract fields plus app_url', async () => {
    const created = await createOrder(
      h,
      h.a.admin.token,
      orderBody(h.a.migratedLab, { price: { amount: '999', currency: 'EUR' }, quantity: 3, notes: 'n' }),
    );
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${created.id}` });
    expect(res.statusCode).toBe(200);
    const o = res.json();
    expect(o).toEqual(created);
    expect(Object.keys(o).sort()).toEqual(ORDER_FIELDS);
    expect(o).toMatchObject({
      id: created.id,
      status: 'CREATED',
      quantity: '3',
      unit_price: '9.99',
      total_price: { amount: '2997', currency: 'EUR' },
      notes: 'n',
      lab: { id: h.a.migratedLab.id, name: 'Migrated lab A', organization: { id: h.a.orgId, name: 'Org A' }, uses_instances: true },
      type: { id: h.a.migratedLab.typeId, name: 'Antibody' },
      app_url: `http://labstock.test/app/order-requests/${created.id}`,
      unit_size: null,
      invoice_number: null,
      requisition_number: null,
      confirmation_number: null,
      tracking_number: null,
      purchase_order_number: null,
      shipping_and_handling: null,
      details: null,
      spend_tracking_code: null,
      backordered_expected_at: null,
      is_urgent: false,
    });
    expect(Object.keys(o.lab).sort()).toEqual(['id', 'name', 'organization', 'uses_instances']);
    expect(Object.keys(o.type).sort()).toEqual(['id', 'name']);
    expect(Object.keys(o.total_price).sort()).toEqual(['amount', 'currency']);
  });

  it('reflects status changes and who made the request', async () => {
    const member = await userOf(h, h.a.member.token);
    const created = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab));
    const moved = await moveThrough(h, h.a.admin.token, created.id, ['APPROVED', 'ORDERED']);
    const res = await h.call(h.a.member.token, { method: 'GET', url: `/order-requests/${created.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(moved);
    expect(res.json().status).toBe('ORDERED');
    expect(res.json().requested_by).toEqual(member);
    expect(res.json().created_by).toEqual(member);
    expect(Date.parse(res.json().updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
  });

  it('is visible to a member of the lab and to the org admin', async () => {
    const created = await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab));
    for (const token of [h.a.admin.token, h.a.member.token]) {
      const res = await h.call(token, { method: 'GET', url: `/order-requests/${created.id}` });
      expect(res.statusCode).toBe(200);
      expect(res.json().id).toBe(created.id);
    }
  });

  it('accepts Authorization: Bearer as well as Access-Token', async () => {
    const created = await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab));
    const res = await h.call(null, {
      method: 'GET',
      url: `/order-requests/${created.id}`,
      headers: { authorization: `Bearer ${h.a.admin.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);
  });
});
