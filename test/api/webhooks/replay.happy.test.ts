import { describe, expect, it } from 'vitest';
import { Receiver } from '../../helpers/receiver.js';
import { create, h, postsTo as postsAt, receiver, settle, useDeliveringApp } from './_setup.js';

// POST /webhooks/{id}/replay {from, to} (docs/product.md §8): 202 {scheduled}; every event of the webhook's scope (its lab,
// or its whole organization) and event_types filter created in [from, to] is sent again, including events that
// happened while the webhook was disabled. Ping events are never replayed.

useDeliveringApp();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let seq = 0;
async function put(id: string, payload: Record<string, unknown>): Promise<void> {
  const res = await h.call(h.a.admin.token, { method: 'PUT', url: `/webhooks/${id}`, payload });
  expect(res.statusCode, res.body).toBe(200);
}

async function replay(id: string, from: string, to: string): Promise<number> {
  const res = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${id}/replay`, payload: { from, to } });
  expect(res.statusCode, res.body).toBe(202);
  expect(Object.keys(res.json())).toEqual(['scheduled']);
  return res.json().scheduled;
}

async function ping(id: string): Promise<string> {
  const res = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${id}/ping` });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().event_id;
}

interface EventRow {
  id: string;
  type: string;
  lab_id: string | null;
  created_at: string;
  payload: string;
}

/** Each helper causes exactly one event, a few milliseconds apart so created_at differs. */
async function newest(): Promise<EventRow> {
  await sleep(3);
  return h.deps.db
    .selectFrom('events')
    .select(['id', 'type', 'lab_id', 'created_at', 'payload'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
}
async function updateLegacyItem(): Promise<EventRow> {
  seq += 1;
  const res = await h.call(h.a.admin.token, {
    method: 'PUT',
    url: `/inventory-items/${h.a.legacyLab.itemId}`,
    payload: { quantity: String(100 + seq) },
  });
  expect(res.statusCode, res.body).toBe(200);
  const e = await newest();
  expect([e.type, e.lab_id]).toEqual(['com.labstock.inventory-item.updated', h.a.legacyLab.id]);
  return e;
}
async function updateMigratedInstance(): Promise<EventRow> {
  seq += 1;
  const m = h.a.migratedLab;
  const res = await h.call(h.a.admin.token, {
    method: 'PUT',
    url: `/inventory-items/${m.itemId}/instances/${m.instanceIds[0]}`,
    payload: { quantity: String(seq) },
  });
  expect(res.statusCode, res.body).toBe(200);
  const e = await newest();
  expect([e.type, e.lab_id]).toEqual(['com.labstock.inventory-item.updated', m.id]);
  return e;
}
async function createOrderRequest(): Promise<EventRow> {
  seq += 1;
  const res = await h.call(h.a.admin.token, {
    method: 'POST',
    url: '/order-requests',
    payload: {
      lab_id: h.a.legacyLab.id,
      type_id: h.a.legacyLab.typeId,
      name: `Thing ${seq}`,
      vendor_name: 'Vendor',
      catalog_number: `CAT-${seq}`,
      price: { amount: '1250', currency: 'USD' },
      quantity: 1,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const e = await newest();
  expect([e.type, e.lab_id]).toEqual(['com.labstock.order-request.created', h.a.legacyLab.id]);
  return e;
}

const idsAt = (path: string) => receiver.posts.filter((p) => p.path === `/hook?w=${path}`).map((p) => String(p.headers['webhook-id']));

describe('POST /webhooks/{id}/replay', () => {
  it('sends again every matching event of the range, including those skipped while the webhook was disabled; never pings', async () => {
    const org = await create('org', { event_types: ['inventory-item.updated'] }); // whole organization, one type
    const lab = await create('lab', { organization_id: undefined, lab_id: h.a.legacyLab.id }); // one lab, all types
    await settle();
    const from = new Date().toISOString();

    const e1 = await updateLegacyItem();
    await settle();
    await put(org.id, { is_enabled: false });
    const e2 = await updateLegacyItem();
    const e3 = await updateMigratedInstance();
    const e4 = await createOrderRequest();
    await settle();
    await put(org.id, { is_enabled: true });
    const orgPing = await ping(org.id);
    const labPing = await ping(lab.id); // a ping event in the lab webhook's own lab and range
    await settle();
    await sleep(3);
    const to = new Date().toISOString();

    expect(idsAt('org'), 'while disabled, nothing was sent').toEqual([e1.id, orgPing]);
    expect(idsAt('lab').sort()).toEqual([e1.id, e2.id, e4.id, labPing].sort());

    expect(await replay(org.id, from, to)).toBe(3);
    await settle();
    expect(idsAt('org').slice(2).sort()).toEqual([e1.id, e2.id, e3.id].sort());

    expect(await replay(lab.id, from, to)).toBe(3);
    await settle();
    expect(idsAt('lab').slice(4).sort()).toEqual([e1.id, e2.id, e4.id].sort());

    // Replayed deliveries carry the event exactly as stored, signed, with the event id as webhook-id.
    const byId = new Map([e1, e2, e3, e4].map((e) => [e.id, e]));
    for (const got of [...postsAt('org').slice(2), ...postsAt('lab').slice(4)]) {
      const event = byId.get(String(got.headers['webhook-id']))!;
      expect(got.body).toBe(event.payload);
      expect(got.event?.id).toBe(event.id);
    }
    for (const got of postsAt('org').slice(2)) Receiver.verify(got, org.signing_key);
  });

  it('the replayed deliveries show in the log like any other, newest first', async () => {
    const hook = await create('log', { event_types: ['order-request.created'] });
    const from = new Date().toISOString();
    const e = await createOrderRequest();
    await settle();
    const to = new Date(Date.now() + 1).toISOString();
    expect(await replay(hook.id, from, to)).toBe(1);
    await settle();
    const log = (await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${hook.id}/deliveries` })).json();
    expect(log).toHaveLength(2);
    expect(log.map((d: { event_id: string }) => d.event_id)).toEqual([e.id, e.id]);
    expect(log.map((d: { status: string }) => d.status)).toEqual(['succeeded', 'succeeded']);
    expect(log[0].id).not.toBe(log[1].id);
  });

  it('from and to are inclusive, and compared as instants (any offset)', async () => {
    const hook = await create('bounds', { organization_id: undefined, lab_id: h.a.legacyLab.id, event_types: ['inventory-item.updated'] });
    const a = await updateLegacyItem();
    const b = await updateLegacyItem();
    const c = await updateLegacyItem();
    await settle();
    expect(idsAt('bounds').sort()).toEqual([a.id, b.id, c.id].sort());

    expect(await replay(hook.id, b.created_at, b.created_at)).toBe(1);
    expect(await replay(hook.id, a.created_at, c.created_at)).toBe(3);
    const shifted = (iso: string) => {
      const d = new Date(Date.parse(iso) + 2 * 3_600_000);
      return `${d.toISOString().slice(0, 23)}+02:00`;
    };
    expect(shifted(b.created_at)).not.toBe(b.created_at);
    expect(await replay(hook.id, shifted(b.created_at), shifted(c.created_at))).toBe(2);
    const justAfterA = new Date(Date.parse(a.created_at) + 1).toISOString();
    const justBeforeC = new Date(Date.parse(c.created_at) - 1).toISOString();
    expect(await replay(hook.id, justAfterA, justBeforeC)).toBe(1);
    await settle();
    expect(idsAt('bounds').slice(3).sort()).toEqual([b.id, a.id, b.id, c.id, b.id, c.id, b.id].sort());
  });

  it('an empty range schedules nothing: 202 {scheduled: 0}', async () => {
    const hook = await create('empty');
    const count = () => h.deps.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.id).execute();
    expect(await replay(hook.id, '2000-01-01T00:00:00.000Z', '2000-12-31T23:59:59.999Z')).toBe(0);
    expect(await replay(hook.id, '2999-01-01T00:00:00Z', '2999-01-02T00:00:00Z')).toBe(0);
    expect(await count()).toEqual([]);
  });

  it('the whole history of a lab webhook: every event of that lab ever, but no ping and nothing of other labs', async () => {
    const hook = await create('history', { organization_id: undefined, lab_id: h.a.migratedLab.id });
    await ping(hook.id);
    await settle();
    const expected = await h.deps.db
      .selectFrom('events')
      .select('id')
      .where('lab_id', '=', h.a.migratedLab.id)
      .where('type', '!=', 'com.labstock.webhook.ping')
      .execute();
    // The fixture's own creates (type, item, instances) are events of this lab.
    expect(expected.length).toBeGreaterThanOrEqual(3);
    const before = postsAt('history').length;
    expect(await replay(hook.id, '1970-01-01T00:00:00Z', new Date(Date.now() + 1000).toISOString())).toBe(expected.length);
    await settle();
    const replayed = postsAt('history').slice(before);
    expect(replayed.map((p) => String(p.headers['webhook-id'])).sort()).toEqual(expected.map((e) => e.id).sort());
    for (const p of replayed) expect(p.event?.type).not.toBe('com.labstock.webhook.ping');
  });

  it("uses the webhook's current filter: after changing event_types, a replay sends the newly chosen types", async () => {
    const hook = await create('refilter', { event_types: ['inventory-item.updated'] });
    const from = new Date().toISOString();
    const item = await updateLegacyItem();
    const order = await createOrderRequest();
    await settle();
    expect(idsAt('refilter')).toEqual([item.id]);
    await put(hook.id, { event_types: ['order-request.*'] });
    const to = new Date(Date.now() + 1).toISOString();
    expect(await replay(hook.id, from, to)).toBe(1);
    await settle();
    expect(idsAt('refilter')).toEqual([item.id, order.id]);
  });

  it('a retry with the same Idempotency-Key answers the first 202 and schedules only once', async () => {
    const hook = await create('idem', { event_types: ['order-request.created'] });
    const from = new Date().toISOString();
    await createOrderRequest();
    await settle();
    const body = { from, to: new Date(Date.now() + 1).toISOString() };
    const call = () =>
      h.call(h.a.admin.token, {
        method: 'POST',
        url: `/webhooks/${hook.id}/replay`,
        payload: body,
        headers: { 'idempotency-key': `replay-${hook.id}` },
      });
    const first = await call();
    const second = await call();
    expect([first.statusCode, second.statusCode]).toEqual([202, 202]);
    expect(first.json()).toEqual({ scheduled: 1 });
    expect(second.json()).toEqual(first.json());
    await settle();
    expect(postsAt('idem')).toHaveLength(2); // the original delivery and one replay
  });
});
