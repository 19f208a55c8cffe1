import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';

// PUT /webhooks/{id} (docs/product.md §8): is_enabled (the contract's field), and name, url, event_types, is_signed.
// Untouched fields stay; a new url is not verified until it answers the handshake again.

const h = useHarness();

interface Webhook {
  id: string;
  name: string | null;
  url: string;
  event_types: string[];
  is_enabled: boolean;
  is_verified: boolean;
  is_signed: boolean;
  signing_key: string;
}

async function create(payload: Record<string, unknown> = {}): Promise<Webhook> {
  const res = await h.call(h.a.admin.token, {
    method: 'POST',
    url: '/webhooks',
    payload: {
      organization_id: h.a.orgId,
      url: 'https://hooks.example.org/start',
      name: 'Start',
      event_types: ['order-request.ordered'],
      ...payload,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function put(id: string, payload: Record<string, unknown>): Promise<Webhook> {
  const res = await h.call(h.a.admin.token, { method: 'PUT', url: `/webhooks/${id}`, payload });
  expect(res.statusCode, res.body).toBe(200);
  const got = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${id}` });
  expect(got.json(), 'GET shows what PUT answered').toEqual(res.json());
  return res.json();
}

/** Marks the webhook verified, as the validation handshake would have. */
const markVerified = (id: string) => h.deps.db.updateTable('webhooks').set({ is_verified: 1 }).where('id', '=', id).execute();

describe('PUT /webhooks/{id}', () => {
  it("disables and re-enables (is_enabled, the contract's field); nothing else changes", async () => {
    const wh = await create();
    const off = await put(wh.id, { is_enabled: false });
    expect(off).toEqual({ ...wh, is_enabled: false });
    const on = await put(wh.id, { is_enabled: true });
    expect(on).toEqual(wh);
  });

  it('renames, and clears the name with null', async () => {
    const wh = await create();
    expect(await put(wh.id, { name: 'Renamed' })).toEqual({ ...wh, name: 'Renamed' });
    expect((await put(wh.id, { name: null })).name).toBeNull();
  });

  it('replaces event_types, answering full type strings; [] means all', async () => {
    const wh = await create();
    const changed = await put(wh.id, { event_types: ['inventory-item.*', 'com.labstock.type.created'] });
    // The wildcard is expanded when it is saved: every inventory-item kind there is then, the reminders included
    // (docs/alerts.md); a webhook saved before they existed keeps the kinds it was saved with.
    expect([...changed.event_types].sort()).toEqual([
      'com.labstock.inventory-item.below-minimum',
      'com.labstock.inventory-item.created',
      'com.labstock.inventory-item.deleted',
      'com.labstock.inventory-item.expiring',
      'com.labstock.inventory-item.updated',
      'com.labstock.type.created',
    ]);
    expect(changed.url).toBe(wh.url);
    expect((await put(wh.id, { event_types: [] })).event_types).toEqual([]);
  });

  it('switches signing off and on', async () => {
    const wh = await create();
    expect((await put(wh.id, { is_signed: false })).is_signed).toBe(false);
    expect((await put(wh.id, { is_signed: true })).is_signed).toBe(true);
  });

  it('changes several fields at once', async () => {
    const wh = await create();
    const changed = await put(wh.id, {
      is_enabled: false,
      name: 'All',
      url: 'https://hooks.example.org/all',
      event_types: [],
      is_signed: false,
    });
    expect(changed).toEqual({
      ...wh,
      is_enabled: false,
      name: 'All',
      url: 'https://hooks.example.org/all',
      event_types: [],
      is_signed: false,
      is_verified: false,
    });
  });

  it('changing url resets is_verified to false', async () => {
    const wh = await create();
    await markVerified(wh.id);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${wh.id}` })).json().is_verified).toBe(true);
    const moved = await put(wh.id, { url: 'https://hooks.example.org/moved' });
    expect(moved.url).toBe('https://hooks.example.org/moved');
    expect(moved.is_verified).toBe(false);
  });

  it('keeps is_verified when the url is unchanged or not given', async () => {
    const wh = await create();
    await markVerified(wh.id);
    expect((await put(wh.id, { url: wh.url })).is_verified).toBe(true);
    expect((await put(wh.id, { is_enabled: false, name: 'x' })).is_verified).toBe(true);
  });

  it('an empty body changes nothing', async () => {
    const wh = await create();
    expect(await put(wh.id, {})).toEqual(wh);
  });

  it('never changes the id or the signing key', async () => {
    const wh = await create();
    const changed = await put(wh.id, { url: 'https://hooks.example.org/other', is_signed: false });
    expect(changed.id).toBe(wh.id);
    expect(changed.signing_key).toBe(wh.signing_key);
  });

  it('works for lab webhooks', async () => {
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/webhooks',
      payload: { lab_id: h.a.legacyLab.id, url: 'https://hooks.example.org/lab' },
    });
    const changed = await put(res.json().id, { is_enabled: false });
    expect(changed.is_enabled).toBe(false);
  });
});
