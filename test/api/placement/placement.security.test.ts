import { describe, expect, it } from 'vitest';
import { expectError, expectNotFound } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { preflight, scenario } from './_placement.js';

// Tenancy of the placement endpoints (docs/safety.md): another organization's ids answer 404, never data; no token
// is 401; a member of another lab of the organization does not see this lab's locations either.

const h = useHarness();

describe('placement endpoints: who sees what', () => {
  it("another organization's admin gets 404 for every id of this one", async () => {
    const s = await scenario(h);
    const other = h.b.admin.token;
    expectNotFound(await preflight(h, other, { location_id: s.cabinetId, items: [{ item_id: s.acetone.itemId, quantity: '1' }] }));
    expectNotFound(await h.call(other, { method: 'GET', url: `/locations/${s.cabinetId}/control-area/meter` }));
    expectNotFound(await h.call(other, { method: 'GET', url: `/locations/${s.cabinetId}/segregation-conflicts` }));
    expectNotFound(await h.call(other, { method: 'GET', url: `/inventory-items/${s.acetone.itemId}/storage-attributes` }));
    expectNotFound(
      await h.call(other, {
        method: 'PUT',
        url: `/inventory-items/${s.acetone.itemId}/storage-attributes`,
        payload: { corrosive: 'acid', aqueous: true },
      }),
    );
    const unchanged = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${s.acetone.itemId}/storage-attributes` });
    expect(unchanged.json()).toEqual({ corrosive: null, aqueous: false });
  });

  it("their own location with this organization's container: 404, nothing about it", async () => {
    const s = await scenario(h);
    const loc = await h.call(h.b.admin.token, {
      method: 'POST',
      url: '/locations',
      payload: { lab_id: h.b.migratedLab.id, parent_id: null, name: 'Their shelf' },
    });
    expect(loc.statusCode, loc.body).toBe(201);
    const res = await preflight(h, h.b.admin.token, { location_id: loc.json().id, instances: [{ instance_id: s.acetone.instanceId }] });
    expectNotFound(res);
    expect(res.body).not.toContain('Acetone');
  });

  it('without a token: 401', async () => {
    const s = await scenario(h);
    expectError(await preflight(h, null, { location_id: s.cabinetId }), 401);
    expectError(await h.call(null, { method: 'GET', url: `/locations/${s.cabinetId}/control-area/meter` }), 401);
    expectError(await h.call(null, { method: 'GET', url: `/locations/${s.cabinetId}/segregation-conflicts` }), 401);
  });

  it('an order request of another organization: 404 for its placement check', async () => {
    const s = await scenario(h);
    const order = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: {
        lab_id: s.labId,
        type_id: h.a.migratedLab.typeId,
        name: 'Acetone',
        vendor_name: 'V',
        catalog_number: 'C',
        price: { amount: '1', currency: 'USD' },
        quantity: 1,
      },
    });
    expect(order.statusCode, order.body).toBe(201);
    expectNotFound(await h.call(h.b.admin.token, { method: 'GET', url: `/order-requests/${order.json().id}/placement-check` }));
  });
});
