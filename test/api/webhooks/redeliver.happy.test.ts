import { describe, expect, it } from 'vitest';
import { Receiver } from '../../helpers/receiver.js';
import { create, h, postsTo, receiver, settle, UUID_RE, useDeliveringApp } from './_setup.js';

// POST /webhooks/{id}/deliveries/{deliveryId}/redeliver (docs/product.md §8): 202 {id, event_id, status}; the same event
// is sent again as a new delivery, with the same webhook-id (receivers deduplicate on it) and the same body.
// The original delivery and its log stay as they were.

useDeliveringApp();

const redeliver = (hookId: string, deliveryId: string) =>
  h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${hookId}/deliveries/${deliveryId}/redeliver` });
const list = async (id: string) => (await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${id}/deliveries` })).json();

describe('POST /webhooks/{id}/deliveries/{deliveryId}/redeliver', () => {
  it('sends a delivered event again: 202, a new delivery, same webhook-id and body, both signed validly', async () => {
    const hook = await create('again', { event_types: ['inventory-item.updated'] });
    const put = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${h.a.legacyLab.itemId}`,
      payload: { quantity: '21' },
    });
    expect(put.statusCode).toBe(200);
    await receiver.waitFor(1);
    await settle();
    const [original] = await list(hook.id);
    expect(original).toMatchObject({ status: 'succeeded', event_type: 'com.labstock.inventory-item.updated' });

    const res = await redeliver(hook.id, original.id);
    expect(res.statusCode, res.body).toBe(202);
    const queued = res.json();
    expect(Object.keys(queued).sort()).toEqual(['event_id', 'id', 'status']);
    expect(queued.id).toMatch(UUID_RE);
    expect(queued.id).not.toBe(original.id);
    expect(queued.event_id).toBe(original.event_id);
    expect(queued.status).toBe('pending');

    await receiver.waitFor(2);
    await settle();
    const [first, second] = postsTo('again');
    expect(postsTo('again')).toHaveLength(2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.headers['webhook-id']).toBe(original.event_id);
    expect(second!.body).toBe(first!.body);
    expect(Receiver.verify(second!, hook.signing_key)).toEqual(Receiver.verify(first!, hook.signing_key));
    expect((second!.event!.data as { inventory_item: { quantity: string } }).inventory_item.quantity).toBe('21');

    const log = await list(hook.id);
    expect(log.map((d: { id: string }) => d.id)).toEqual([queued.id, original.id]);
    expect(log[0]).toMatchObject({ event_id: original.event_id, event_type: original.event_type, status: 'succeeded', attempts: 1 });
    expect(log[1]).toEqual(original);
  });

  it('sends the event as it was, even after the resource changed since', async () => {
    const hook = await create('as-it-was', { event_types: ['inventory-item.updated'] });
    expect(
      (await h.call(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${h.a.legacyLab.itemId}`, payload: { quantity: '31' } }))
        .statusCode,
    ).toBe(200);
    await settle();
    const [first] = await list(hook.id);
    expect(
      (await h.call(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${h.a.legacyLab.itemId}`, payload: { quantity: '32' } }))
        .statusCode,
    ).toBe(200);
    await settle();
    const before = postsTo('as-it-was').length;
    expect((await redeliver(hook.id, first.id)).statusCode).toBe(202);
    await settle();
    const got = postsTo('as-it-was');
    expect(got).toHaveLength(before + 1);
    expect(got.at(-1)!.event?.id).toBe(first.event_id);
    expect((got.at(-1)!.event!.data as { inventory_item: { quantity: string } }).inventory_item.quantity).toBe('31');
  });

  it('a delivery that failed every attempt is sent again once the receiver is back', async () => {
    const hook = await create('flaky');
    receiver.respond = (req) => (req.path === '/hook?w=flaky' ? { status: 500 } : { status: 204 });
    const ping = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/ping` });
    await settle();
    receiver.respond = () => ({ status: 204 });
    const [failed] = await list(hook.id);
    expect(failed).toMatchObject({ id: ping.json().id, status: 'failed', attempts: 3 });

    const res = await redeliver(hook.id, failed.id);
    expect(res.statusCode, res.body).toBe(202);
    await settle();
    const log = await list(hook.id);
    expect(log[0]).toMatchObject({ id: res.json().id, event_id: failed.event_id, status: 'succeeded', attempts: 1 });
    expect(log[0].log).toEqual([expect.objectContaining({ outcome: 'success', status_code: 204 })]);
    expect(log[1]).toEqual(failed);
    const posts = postsTo('flaky');
    expect(posts).toHaveLength(4);
    expect(new Set(posts.map((p) => p.headers['webhook-id']))).toEqual(new Set([failed.event_id]));
  });

  it('redelivers a redelivery and a ping; each redelivery is its own new delivery', async () => {
    const hook = await create('chain');
    const ping = (await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/ping` })).json();
    await settle();
    const r1 = (await redeliver(hook.id, ping.id)).json();
    const r2 = (await redeliver(hook.id, r1.id)).json();
    const r3 = (await redeliver(hook.id, ping.id)).json();
    expect(new Set([ping.id, r1.id, r2.id, r3.id]).size).toBe(4);
    await settle();
    const posts = postsTo('chain');
    expect(posts).toHaveLength(4);
    for (const p of posts) expect(p.event?.id).toBe(ping.event_id);
    expect((await list(hook.id)).map((d: { id: string }) => d.id)).toEqual([r3.id, r2.id, r1.id, ping.id]);
  });

  it('sends to this webhook only: another webhook that got the same event gets nothing more', async () => {
    const one = await create('one', { event_types: ['inventory-item.updated'] });
    await create('two', { event_types: ['inventory-item.updated'] });
    expect(
      (await h.call(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${h.a.legacyLab.itemId}`, payload: { quantity: '41' } }))
        .statusCode,
    ).toBe(200);
    await settle();
    expect([postsTo('one').length, postsTo('two').length]).toEqual([1, 1]);
    const [d] = await list(one.id);
    expect((await redeliver(one.id, d.id)).statusCode).toBe(202);
    await settle();
    expect([postsTo('one').length, postsTo('two').length]).toEqual([2, 1]);
  });
});
