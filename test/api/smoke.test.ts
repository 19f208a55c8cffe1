import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h?.close(); });

describe('smoke', () => {
  it('serves every contract operation', async () => {
    const health = await h.call(null, { method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    const user = await h.call(h.a.admin.token, { method: 'GET', url: '/user' });
    expect(user.json()).toMatchObject({ email: 'admin-a@example.org' });
    const labs = await h.call(h.a.admin.token, { method: 'GET', url: '/labs' });
    expect(labs.statusCode).toBe(200);
    expect(labs.json()).toHaveLength(3);
    const items = await h.call(h.a.admin.token, { method: 'GET', url: '/inventory-items' });
    expect(items.json()).toHaveLength(2);
    const migrated = items.json().find((i: any) => i.lab.uses_instances);
    expect(migrated.quantity).toBe('0.3');
    const types = await h.call(h.a.admin.token, { method: 'GET', url: '/types?name=REAGENT' });
    expect(types.json()).toHaveLength(1);
    const created = await h.call(h.a.admin.token, { method: 'POST', url: '/order-requests', payload: {
      lab_id: h.a.migratedLab.id, type_id: h.a.migratedLab.typeId, name: 'Anti-GFP', vendor_name: 'Abcam', catalog_number: 'ab290',
      price: { amount: '1250', currency: 'USD' }, quantity: 2 } });
    expect(created.statusCode, created.body).toBe(201);
    for (const status of ['APPROVED', 'ORDERED', 'RECEIVED']) {
      const r = await h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${created.json().id}`, payload: { status } });
      expect(r.statusCode, r.body).toBe(200);
    }
    const item = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${h.a.migratedLab.itemId}` });
    expect(item.json().quantity).toBe('2.3');
    const wh = await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://example.org/h', event_types: ['order-request.*'] } });
    expect(wh.statusCode, wh.body).toBe(201);
    const events = await h.deps.db.selectFrom('events').select(['type']).execute();
    const oa = await h.call(null, { method: 'GET', url: '/openapi.json' });
    expect(oa.statusCode).toBe(200);
    const docs = await h.call(null, { method: 'GET', url: '/docs' });
    expect(docs.statusCode).toBeLessThan(400);
  });
});
