import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { ALL_SHORT_TYPES } from './_security.js';

// POST /webhooks (docs/product.md §8): url plus lab_id or organization_id (both: a lab webhook); event types in any of the three
// spellings come back as full type strings; defaults; a fresh Standard Webhooks signing key; 201 + Location.

const h = useHarness();

const WEBHOOK_FIELDS = ['event_types', 'id', 'is_enabled', 'is_signed', 'is_verified', 'name', 'signing_key', 'url'];
const full = (short: string) => `com.labstock.${short}`;
const sorted = (xs: string[]) => [...xs].sort();

const create = (payload: Record<string, unknown>, token = h.a.admin.token) => h.call(token, { method: 'POST', url: '/webhooks', payload });

describe('POST /webhooks', () => {
  it('creates an organization webhook: 201, Location, exactly the contract fields, defaults', async () => {
    const res = await create({ organization_id: h.a.orgId, url: 'https://hooks.example.org/org' });
    expect(res.statusCode, res.body).toBe(201);
    const wh = res.json();
    expect(Object.keys(wh).sort()).toEqual(WEBHOOK_FIELDS);
    expect(wh.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(String(res.headers.location)).toMatch(new RegExp(`/webhooks/${wh.id}$`));
    expect(wh).toMatchObject({
      url: 'https://hooks.example.org/org',
      event_types: [],
      is_enabled: true,
      is_signed: true,
      is_verified: false,
    });
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  });

  it('creates a lab webhook for any lab of the organization (the admin sees them all)', async () => {
    for (const labId of [h.a.legacyLab.id, h.a.migratedLab.id, h.a.otherLab.id]) {
      const res = await create({ lab_id: labId, url: 'https://hooks.example.org/lab', name: 'Lab hook' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ name: 'Lab hook', url: 'https://hooks.example.org/lab', is_verified: false });
    }
  });

  it('gives a signing key of whsec_ + base64 of 32 bytes, different for every webhook', async () => {
    const keys = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await create({ organization_id: h.a.orgId, url: `https://hooks.example.org/k${i}` });
      const key: string = res.json().signing_key;
      expect(key).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(key.slice('whsec_'.length), 'base64')).toHaveLength(32);
      keys.add(key);
    }
    expect(keys.size).toBe(3);
  });

  it('accepts full type strings and returns them as given', async () => {
    const res = await create({
      organization_id: h.a.orgId,
      url: 'https://hooks.example.org/full',
      event_types: ['com.labstock.order-request.ordered', 'com.labstock.sales-order-item.shipped'],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(sorted(res.json().event_types)).toEqual(sorted([full('order-request.ordered'), full('sales-order-item.shipped')]));
  });

  it('accepts short types and answers with the full type strings', async () => {
    const res = await create({
      organization_id: h.a.orgId,
      url: 'https://hooks.example.org/short',
      event_types: ['order-request.ordered', 'inventory-item.updated'],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(sorted(res.json().event_types)).toEqual(sorted([full('order-request.ordered'), full('inventory-item.updated')]));
  });

  it("expands resource.* to every kind of that resource (Labstock's order-request.updated included)", async () => {
    const res = await create({
      lab_id: h.a.legacyLab.id,
      url: 'https://hooks.example.org/star',
      event_types: ['order-request.*', 'shipment.*'],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(sorted(res.json().event_types)).toEqual(
      sorted(
        [
          'order-request.created',
          'order-request.deleted',
          'order-request.ordered',
          'order-request.received',
          'order-request.updated',
          'shipment.created',
          'shipment.delivered',
        ].map(full),
      ),
    );
  });

  it('accepts every event type of docs/product.md §7, in both spellings', async () => {
    const short = await create({ organization_id: h.a.orgId, url: 'https://hooks.example.org/all-short', event_types: ALL_SHORT_TYPES });
    expect(short.statusCode, short.body).toBe(201);
    expect(sorted(short.json().event_types)).toEqual(sorted(ALL_SHORT_TYPES.map(full)));
    const long = await create({
      organization_id: h.a.orgId,
      url: 'https://hooks.example.org/all-full',
      event_types: ALL_SHORT_TYPES.map(full),
    });
    expect(long.statusCode, long.body).toBe(201);
    expect(sorted(long.json().event_types)).toEqual(sorted(ALL_SHORT_TYPES.map(full)));
  });

  it('mixes spellings; every returned entry is a full type string', async () => {
    const res = await create({
      organization_id: h.a.orgId,
      url: 'https://hooks.example.org/mixed',
      event_types: ['type.*', 'com.labstock.inventory-item.deleted', 'sales-order.placed'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const types: string[] = res.json().event_types;
    for (const t of types) expect(t).toMatch(/^com\.labstock\.[a-z-]+\.[a-z]+$/);
    expect(new Set(types)).toEqual(
      new Set([
        full('type.created'),
        full('type.deleted'),
        full('type.updated'),
        full('inventory-item.deleted'),
        full('sales-order.placed'),
      ]),
    );
  });

  it('[] and an omitted event_types both mean all events, stored and returned as []', async () => {
    const empty = await create({ organization_id: h.a.orgId, url: 'https://hooks.example.org/empty', event_types: [] });
    const omitted = await create({ lab_id: h.a.migratedLab.id, url: 'https://hooks.example.org/omitted' });
    for (const res of [empty, omitted]) {
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().event_types).toEqual([]);
      const again = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${res.json().id}` });
      expect(again.json().event_types).toEqual([]);
    }
  });

  it('takes is_enabled and is_signed from the client', async () => {
    const res = await create({ organization_id: h.a.orgId, url: 'https://hooks.example.org/flags', is_enabled: false, is_signed: false });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ is_enabled: false, is_signed: false });
    const explicit = await create({
      organization_id: h.a.orgId,
      url: 'https://hooks.example.org/flags2',
      is_enabled: true,
      is_signed: true,
    });
    expect(explicit.json()).toMatchObject({ is_enabled: true, is_signed: true });
  });

  it('ignores is_verified from the client: a new webhook is not verified', async () => {
    const res = await create({ organization_id: h.a.orgId, url: 'https://hooks.example.org/verified', is_verified: true });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().is_verified).toBe(false);
    const again = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${res.json().id}` });
    expect(again.json().is_verified).toBe(false);
  });

  it('accepts http as well as https, with port, path and query', async () => {
    for (const url of ['http://hooks.example.org/plain', 'https://hooks.example.org:8443/a/b?token=x&y=1']) {
      const res = await create({ organization_id: h.a.orgId, url });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().url).toBe(url);
    }
  });

  it('persists what it returned: GET shows the same webhook, and the list contains it', async () => {
    const res = await create({
      lab_id: h.a.legacyLab.id,
      name: 'Persisted',
      url: 'https://hooks.example.org/persisted',
      event_types: ['order-request.ordered'],
      is_signed: false,
    });
    const created = res.json();
    const got = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${created.id}` });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(created);
    const list = await h.call(h.a.admin.token, { method: 'GET', url: '/webhooks?per_page=100' });
    expect(list.json()).toContainEqual(created);
  });

  it("takes lab_id and organization_id together when the lab is that organization's: a lab webhook (docs/product.md §13)", async () => {
    const res = await create({ lab_id: h.a.migratedLab.id, organization_id: h.a.orgId, url: 'https://hooks.example.org/both' });
    expect(res.statusCode, res.body).toBe(201);
    const row = await h.deps.db
      .selectFrom('webhooks')
      .select(['organization_id', 'lab_id'])
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ organization_id: h.a.orgId, lab_id: h.a.migratedLab.id });
  });

  it("stores a lab webhook under the lab's organization (other organizations never list it)", async () => {
    const res = await create({ lab_id: h.a.legacyLab.id, url: 'https://hooks.example.org/tenant' });
    const id = res.json().id;
    const listB = await h.call(h.b.admin.token, { method: 'GET', url: '/webhooks?per_page=100' });
    expect(listB.json().map((w: { id: string }) => w.id)).not.toContain(id);
    const row = await h.deps.db.selectFrom('webhooks').select(['organization_id', 'lab_id']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ organization_id: h.a.orgId, lab_id: h.a.legacyLab.id });
  });

  it('accepts Authorization: Bearer as well as Access-Token', async () => {
    const res = await h.call(null, {
      method: 'POST',
      url: '/webhooks',
      headers: { authorization: `Bearer ${h.a.admin.token}` },
      payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/bearer' },
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});
