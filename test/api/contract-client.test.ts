import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../helpers/use-harness.js';

// A client that knows only the contract and a base URL: real HTTP over a listening socket, every operation.
let base: string;
const h = useHarness({}, async (h) => {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'Access-Token': h.a.admin.token, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json(), headers: res.headers };
}

describe('every contract operation over real HTTP', () => {
  it('walks labs, types, items, instances, order requests and webhooks', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await api('GET', '/user')).json.email).toBe(h.a.admin.email);

    const labs = await api('GET', `/labs?organization_id=${h.a.orgId}`);
    expect(labs.headers.get('x-total-count')).toBe('3');
    // Migration rule 1-2: legacy only when uses_instances is present and false.
    const migrated = labs.json.find((l: any) => l.uses_instances !== false);
    const legacy = labs.json.find((l: any) => l.uses_instances === false && l.id === h.a.legacyLab.id);
    expect((await api('GET', `/labs/${migrated.id}`)).json).toEqual(migrated);

    const [type] = (await api('GET', `/types?lab_id=${migrated.id}&name=antibody`)).json;
    expect(type).toMatchObject({ name: 'Antibody', lab: { id: migrated.id } });

    const [item] = (await api('GET', `/inventory-items?lab_id=${migrated.id}`)).json;
    expect(item.quantity).toBe('0.3');
    const instance = item.instances[0];
    const updated = await api('PUT', `/inventory-items/${item.id}/instances/${instance.id}`, { quantity: '1.7' });
    expect(updated.status).toBe(200);
    expect(updated.json.quantity).toBe('1.9');
    expect((await api('GET', `/inventory-items/${item.id}`)).json).toEqual(updated.json);

    const [legacyItem] = (await api('GET', `/inventory-items?lab_id=${legacy.id}`)).json;
    expect((await api('PUT', `/inventory-items/${legacyItem.id}`, { quantity: '10' })).json.quantity).toBe('10');
    expect((await api('PUT', `/inventory-items/${item.id}`, { quantity: '10' })).status).toBe(409);

    const created = await api('POST', '/order-requests', {
      lab_id: migrated.id,
      type_id: type.id,
      name: 'Anti-GFP',
      vendor_name: 'Abcam',
      catalog_number: 'ab290',
      price: { amount: '41500', currency: 'USD' },
      quantity: 2,
      required_before: '2027-01-15',
      notes: 'for the March experiment',
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      status: 'CREATED',
      item_name: 'Anti-GFP',
      quantity: '2',
      unit_price: '415.00',
      total_price: { amount: '83000', currency: 'USD' },
    });
    for (const status of ['APPROVED', 'ORDERED', 'RECEIVED']) {
      expect((await api('PUT', `/order-requests/${created.json.id}`, { status })).json.status).toBe(status);
    }
    expect((await api('GET', `/order-requests/${created.json.id}`)).json.status).toBe('RECEIVED');
    expect((await api('GET', '/order-requests?status=RECEIVED')).json.map((o: any) => o.id)).toContain(created.json.id);
    expect((await api('GET', `/inventory-items/${item.id}`)).json.quantity).toBe('3.9');

    const hook = await api('POST', '/webhooks', {
      lab_id: migrated.id,
      url: 'https://hooks.example.org/labstock',
      event_types: ['order-request.ordered'],
    });
    expect(hook.status).toBe(201);
    expect(hook.json.event_types).toEqual(['com.labstock.order-request.ordered']);
    expect((await api('PUT', `/webhooks/${hook.json.id}`, { is_enabled: false })).json.is_enabled).toBe(false);
    expect((await api('GET', `/webhooks/${hook.json.id}`)).json.is_enabled).toBe(false);
    expect((await api('GET', `/webhooks?organization_id=${h.a.orgId}`)).json).toHaveLength(1);
  });
});
