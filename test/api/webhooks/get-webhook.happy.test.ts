import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const create = async (payload: Record<string, unknown>) => {
  const res = await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};

describe('GET /webhooks/{id}', () => {
  it('returns the webhook exactly as created, with exactly the contract fields', async () => {
    const created = await create({
      organization_id: h.a.orgId,
      name: 'Orders',
      url: 'https://hooks.example.org/orders',
      event_types: ['order-request.*'],
      is_signed: false,
    });
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${created.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);
    expect(Object.keys(res.json()).sort()).toEqual([
      'event_types',
      'id',
      'is_enabled',
      'is_signed',
      'is_verified',
      'name',
      'signing_key',
      'url',
    ]);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  });

  it('returns lab webhooks too', async () => {
    const created = await create({ lab_id: h.a.migratedLab.id, url: 'https://hooks.example.org/lab' });
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${created.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: created.id,
      url: 'https://hooks.example.org/lab',
      event_types: [],
      is_enabled: true,
      is_signed: true,
      is_verified: false,
    });
  });

  it('shows event types as full type strings whatever spelling created them', async () => {
    const created = await create({
      organization_id: h.a.orgId,
      url: 'https://hooks.example.org/t',
      event_types: ['type.created', 'com.labstock.shipment.delivered'],
    });
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${created.id}` });
    expect([...res.json().event_types].sort()).toEqual(['com.labstock.shipment.delivered', 'com.labstock.type.created']);
  });

  it('returns the signing key in the Standard Webhooks format', async () => {
    const created = await create({ organization_id: h.a.orgId, url: 'https://hooks.example.org/k' });
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${created.id}` });
    expect(res.json().signing_key).toBe(created.signing_key);
    expect(res.json().signing_key).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });

  it('accepts the id in upper case as the same uuid, or answers 404 (never a 5xx)', async () => {
    const created = await create({ organization_id: h.a.orgId, url: 'https://hooks.example.org/u' });
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${String(created.id).toUpperCase()}` });
    expect([200, 404]).toContain(res.statusCode);
    if (res.statusCode === 200) expect(res.json().id).toBe(created.id);
  });

  it('ignores a trailing slash', async () => {
    const created = await create({ organization_id: h.a.orgId, url: 'https://hooks.example.org/s' });
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${created.id}/` });
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(created.id);
  });
});
