import { type CloudEvent, HTTP } from 'cloudevents';
import { describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { type Received, Receiver } from '../helpers/receiver.js';
import { createHook, deliveries, deliverySuite, type Hook } from './_setup.js';

// docs/webhooks.md, "Format": a webhook delivers the contract's application/json (the stored event byte for byte)
// unless its settings say cloudevents: CloudEvents 1.0 structured mode, application/cloudevents+json, the same
// envelope with subject. The cloudevents SDK's HTTP.toEvent() accepts what a real receiver got, and the Standard
// Webhooks signatures cover the body actually sent.

const ENV = {
  WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
  WEBHOOK_RETRY_SCHEDULE: '50ms,100ms',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_POLL: '50ms',
};
const suite = deliverySuite(ENV);
const { changeInstance } = suite;

async function setFormat(hh: Harness, id: string, format: 'json' | 'cloudevents'): Promise<void> {
  const res = await hh.call(hh.a.admin.token, { method: 'PUT', url: `/webhooks/${id}/settings`, payload: { format } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ format });
}

const storedPayload = async (hh: Harness, eventId: string) =>
  (await hh.deps.db.selectFrom('events').select('payload').where('id', '=', eventId).executeTakeFirstOrThrow()).payload;

/** What the cloudevents SDK makes of a received request, as a receiver's framework would hand it over. */
const toEvent = (got: Received) =>
  HTTP.toEvent({ headers: got.headers as Record<string, string>, body: got.body }) as CloudEvent<Record<string, unknown>>;

async function expectContractJson(hh: Harness, got: Received, hook: Hook): Promise<void> {
  expect(got.headers['content-type']).toBe('application/json');
  expect(got.body).toBe(await storedPayload(hh, String(got.headers['webhook-id'])));
  expect(Object.keys(JSON.parse(got.body)).sort()).toEqual(['data', 'datacontenttype', 'id', 'source', 'specversion', 'time', 'type']);
  expect(() => Receiver.verify(got, hook.signing_key)).not.toThrow();
}

describe('delivery format', () => {
  it('json by default; cloudevents structured mode once set, accepted by HTTP.toEvent(); json again when set back', async () => {
    const hh = await suite.harness();
    const r = await suite.receiver();
    const hook = await createHook(hh, { url: r.url });
    const worker = await hh.startWorker();

    // The default: the contract's format, unchanged for existing receivers.
    await changeInstance(hh);
    await r.waitFor(1);
    await expectContractJson(hh, r.posts[0]!, hook);

    await setFormat(hh, hook.id, 'cloudevents');
    const item = await changeInstance(hh);
    await r.waitFor(2);
    await worker.idle();
    const got = r.posts[1]!;
    expect(got.headers['content-type']).toBe('application/cloudevents+json');
    const event = toEvent(got);
    expect(event.specversion).toBe('1.0');
    expect(event.type).toBe('com.labstock.inventory-item.updated');
    expect(event.id).toBe(got.headers['webhook-id']);
    expect(event.source).toBe('https://labstock.test');
    expect(event.subject).toBe(item.id);
    expect(event.datacontenttype).toBe('application/json');
    expect(event.data).toEqual({ inventory_item: item });
    // The same envelope as stored, plus subject; signed over the body as sent.
    const { subject, ...rest } = JSON.parse(got.body) as Record<string, unknown>;
    expect(subject).toBe(item.id);
    expect(rest).toEqual(JSON.parse(await storedPayload(hh, event.id)));
    expect(() => Receiver.verify(got, hook.signing_key)).not.toThrow();
    const [latest] = await deliveries(hh, hook.id);
    expect(latest).toMatchObject({ event_id: event.id, status: 'succeeded', attempts: 1 });

    await setFormat(hh, hook.id, 'json');
    await changeInstance(hh);
    await r.waitFor(3);
    await expectContractJson(hh, r.posts[2]!, hook);
  });

  it('a ping in structured mode names the webhook as subject; during a key rotation both signatures cover the body sent', async () => {
    const hh = await suite.harness();
    const r = await suite.receiver();
    const hook = await createHook(hh, { url: r.url });
    await setFormat(hh, hook.id, 'cloudevents');
    const rotated = await hh.call(hh.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/rotate-secret` });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const newKey = (rotated.json() as Hook).signing_key;
    await hh.startWorker();
    expect((await hh.call(hh.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/ping` })).statusCode).toBe(202);
    await r.waitFor(1);
    const got = r.posts[0]!;
    const event = toEvent(got);
    expect(event.type).toBe('com.labstock.webhook.ping');
    expect(event.subject).toBe(hook.id);
    expect(event.data).toEqual({ webhook: { id: hook.id, name: null, url: r.url } });
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const key of [hook.signing_key, newKey]) expect(() => Receiver.verify(got, key)).not.toThrow();
  });

  it('a delivery queued before the switch is sent in the format the webhook has when it is sent', async () => {
    const hh = await suite.harness();
    const r = await suite.receiver();
    const hook = await createHook(hh, { url: r.url });
    // No worker yet: the event's delivery waits, queued while the webhook is json.
    await changeInstance(hh);
    expect(await deliveries(hh, hook.id)).toMatchObject([{ status: 'pending', attempts: 0 }]);
    await setFormat(hh, hook.id, 'cloudevents');
    await hh.startWorker();
    await r.waitFor(1);
    const got = r.posts[0]!;
    expect(got.headers['content-type']).toBe('application/cloudevents+json');
    expect(toEvent(got).id).toBe(got.headers['webhook-id']);
    expect(() => Receiver.verify(got, hook.signing_key)).not.toThrow();
  });

  it('the deprecated content_type of PUT /webhooks/{id} is still honoured', async () => {
    const hh = await suite.harness();
    const r = await suite.receiver();
    const hook = await createHook(hh, { url: r.url });
    const put = await hh.call(hh.a.admin.token, {
      method: 'PUT',
      url: `/webhooks/${hook.id}`,
      payload: { content_type: 'application/cloudevents+json' },
    });
    expect(put.statusCode, put.body).toBe(200);
    await hh.startWorker();
    await changeInstance(hh);
    await r.waitFor(1);
    expect(r.posts[0]!.headers['content-type']).toBe('application/cloudevents+json');
    expect(toEvent(r.posts[0]!).type).toBe('com.labstock.inventory-item.updated');
  });
});
