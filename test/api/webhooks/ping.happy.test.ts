import { describe, expect, it } from 'vitest';
import { Receiver } from '../../helpers/receiver.js';
import { create, DATETIME_RE, h, ping, postsTo, receiver, settle, UUID_RE, useDeliveringApp } from './_setup.js';

// POST /webhooks/{id}/ping (docs/product.md §8): 202 {id, event_id, status}; a com.labstock.webhook.ping CloudEvent is
// delivered to this webhook only, whatever its event_types filter, signed like any delivery.

useDeliveringApp();

describe('POST /webhooks/{id}/ping', () => {
  it('202 {id, event_id, status: pending}; the ping reaches this webhook only, as a valid signed CloudEvent', async () => {
    const target = await create('target', { name: 'Pinged', event_types: ['order-request.created'] });
    await create('all-org'); // every event of the organization: still must not get another webhook's ping
    await create('lab', { organization_id: undefined, lab_id: h.a.legacyLab.id });

    const res = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${target.id}/ping` });
    expect(res.statusCode, res.body).toBe(202);
    const queued = res.json();
    expect(Object.keys(queued).sort()).toEqual(['event_id', 'id', 'status']);
    expect(queued.id).toMatch(UUID_RE);
    expect(queued.event_id).toMatch(UUID_RE);
    expect(queued.status).toBe('pending');

    await receiver.waitFor(1);
    await settle();
    expect(receiver.posts).toHaveLength(1);
    const got = postsTo('target')[0]!;
    expect(got).toBeDefined();
    expect(got.parseError).toBeNull();
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['webhook-id']).toBe(queued.event_id);
    const event = Receiver.verify(got, target.signing_key) as Record<string, any>;
    expect(event).toEqual({
      specversion: '1.0',
      id: queued.event_id,
      source: 'https://labstock.test',
      type: 'com.labstock.webhook.ping',
      datacontenttype: 'application/json',
      time: expect.stringMatching(DATETIME_RE),
      data: { webhook: { id: target.id, name: 'Pinged', url: target.url } },
    });
    expect(got.event?.type).toBe('com.labstock.webhook.ping');
  });

  it("the ping shows in this webhook's delivery log (succeeded) and in no other", async () => {
    const target = await create('logged');
    const other = await create('other-logged');
    const n = receiver.posts.length;
    const queued = await ping(target.id);
    await receiver.waitFor(n + 1);
    await settle();
    const log = (await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${target.id}/deliveries` })).json();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      id: queued.id,
      event_id: queued.event_id,
      event_type: 'com.labstock.webhook.ping',
      status: 'succeeded',
      attempts: 1,
    });
    expect(log[0].log).toEqual([expect.objectContaining({ outcome: 'success', status_code: 204 })]);
    const otherLog = (await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${other.id}/deliveries` })).json();
    expect(otherLog).toEqual([]);
    expect(postsTo('other-logged')).toEqual([]);
  });

  it('each ping is a new event; lab webhooks and unsigned webhooks are pinged too', async () => {
    const lab = await create('lab-ping', { organization_id: undefined, lab_id: h.a.migratedLab.id });
    const n = receiver.posts.length;
    const first = await ping(lab.id);
    const second = await ping(lab.id);
    expect(first.event_id).not.toBe(second.event_id);
    expect(first.id).not.toBe(second.id);
    await receiver.waitFor(n + 2);
    await settle();
    expect(
      postsTo('lab-ping')
        .map((p) => p.event?.id)
        .sort(),
    ).toEqual([first.event_id, second.event_id].sort());
    expect(postsTo('lab-ping')[0]!.event?.data).toEqual({ webhook: { id: lab.id, name: null, url: lab.url } });

    const unsigned = await create('unsigned-ping', { is_signed: false });
    const queued = await ping(unsigned.id);
    await settle();
    const [got] = postsTo('unsigned-ping');
    expect(got?.event?.id).toBe(queued.event_id);
    expect(got?.headers['webhook-signature']).toBeUndefined();
    expect(got?.headers.signature).toBeUndefined();
  });

  it('a webhook that was disabled and enabled again can be pinged', async () => {
    const hook = await create('reenabled');
    for (const is_enabled of [false, true]) {
      expect((await h.call(h.a.admin.token, { method: 'PUT', url: `/webhooks/${hook.id}`, payload: { is_enabled } })).statusCode).toBe(200);
    }
    const queued = await ping(hook.id);
    await settle();
    expect(postsTo('reenabled').map((p) => p.event?.id)).toEqual([queued.event_id]);
  });

  it('a failing receiver: the ping is retried like any delivery and the log shows each attempt', async () => {
    const hook = await create('failing');
    receiver.respond = (req) => (req.path === '/hook?w=failing' ? { status: 500, body: 'down for maintenance' } : { status: 204 });
    try {
      const queued = await ping(hook.id);
      await settle();
      const [delivery] = (await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${hook.id}/deliveries` })).json();
      expect(delivery).toMatchObject({ id: queued.id, status: 'failed', attempts: 3 });
      expect(
        delivery.log.map((l: { outcome: string; status_code: number; response_body: string }) => [
          l.outcome,
          l.status_code,
          l.response_body,
        ]),
      ).toEqual([
        ['http_error', 500, 'down for maintenance'],
        ['http_error', 500, 'down for maintenance'],
        ['http_error', 500, 'down for maintenance'],
      ]);
      expect(postsTo('failing').every((p) => p.headers['webhook-id'] === queued.event_id)).toBe(true);
    } finally {
      receiver.respond = () => ({ status: 204 });
    }
  });

  it('a retry with the same Idempotency-Key answers the first 202 and pings only once', async () => {
    const hook = await create('idempotent');
    const n = receiver.posts.length;
    const call = () =>
      h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/ping`, headers: { 'idempotency-key': `ping-${hook.id}` } });
    const first = await call();
    const second = await call();
    expect([first.statusCode, second.statusCode]).toEqual([202, 202]);
    expect(second.json()).toEqual(first.json());
    expect(second.headers['idempotent-replayed']).toBe('true');
    await receiver.waitFor(n + 1);
    await settle();
    expect(postsTo('idempotent')).toHaveLength(1);
    const events = await h.deps.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.id).execute();
    expect(events).toHaveLength(1);
  });
});
