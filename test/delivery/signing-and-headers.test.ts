import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { type Received, Receiver } from '../helpers/receiver.js';
import { createHook, deliveriesAs, deliverySuite, waitUntil } from './_setup.js';

// docs/product.md §7–§8: what one delivery looks like on the wire. A POST of the CloudEvent JSON, Content-Type
// application/json, and when signed the Standard Webhooks headers (webhook-id stable across retries,
// webhook-timestamp, webhook-signature = "v1,<base64 HMAC-SHA256 of id.timestamp.body>") plus Signature with
// the same value. Every assertion is on what a real HTTP receiver got.

const ENV = {
  WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
  WEBHOOK_RETRY_SCHEDULE: '50ms,100ms,150ms',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_POLL: '50ms',
};
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ONE_SIGNATURE_RE = /^v1,[A-Za-z0-9+/]{43}=$/;

const suite = deliverySuite(ENV);
const { changeInstance } = suite;

async function setup(env: Record<string, string> = {}): Promise<{ h: Harness; receiver: Receiver }> {
  const {
    h,
    rx: [receiver],
  } = await suite.setup(env);
  return { h, receiver: receiver! };
}

/** The webhook's delivery log: the first page, at the default page size. */
const deliveries = (hh: Harness, hookId: string) => deliveriesAs(hh, hh.a.admin.token, hookId, '');

/** The Standard Webhooks v1 signature computed here, independently of src/ and of the standardwebhooks package. */
function expectedSignature(key: string, id: string, timestamp: string, body: string): string {
  const secret = Buffer.from(key.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', secret).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

function expectSignedHeaders(got: Received, key: string): void {
  const id = String(got.headers['webhook-id']);
  const ts = String(got.headers['webhook-timestamp']);
  const sig = String(got.headers['webhook-signature']);
  expect(id).toMatch(UUID_RE);
  expect(ts).toMatch(/^\d+$/);
  // Seconds since the epoch, taken when the attempt was made.
  expect(Math.abs(Number(ts) - got.at / 1000)).toBeLessThan(5);
  expect(sig).toMatch(ONE_SIGNATURE_RE);
  expect(sig).toBe(expectedSignature(key, id, ts, got.body));
  expect(got.headers.signature).toBe(sig);
  expect(() => Receiver.verify(got, key)).not.toThrow();
}

describe('a signed delivery', () => {
  it('carries webhook-id = event id, webhook-timestamp, webhook-signature, Signature, Content-Type, User-Agent, and the CloudEvent as body', async () => {
    const { h, receiver } = await setup();
    const hook = await createHook(h, { url: receiver.url });
    expect(hook.is_signed).toBe(true);
    expect(hook.signing_key).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const worker = await h.startWorker();
    const before = Date.now();
    const item = await changeInstance(h);
    await receiver.waitFor(1);
    await worker.idle();
    expect(receiver.posts).toHaveLength(1);
    const got = receiver.posts[0]!;

    expect(got.method).toBe('POST');
    expect(got.path).toBe('/hook');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toMatch(/^Labstock-Webhooks\/\d+\.\d+\.\d+/);
    expectSignedHeaders(got, hook.signing_key);

    // The body is the CloudEvent envelope, exactly its seven fields, valid for the cloudevents package.
    expect(got.parseError).toBeNull();
    expect(got.event).not.toBeNull();
    const body = JSON.parse(got.body) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['data', 'datacontenttype', 'id', 'source', 'specversion', 'time', 'type']);
    expect(body).toMatchObject({
      specversion: '1.0',
      source: 'https://labstock.test',
      type: 'com.labstock.inventory-item.updated',
      datacontenttype: 'application/json',
    });
    expect(body.id).toMatch(UUID_RE);
    expect(body.time).toMatch(DATETIME_RE);
    expect(Date.parse(body.time as string)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.time as string)).toBeLessThanOrEqual(got.at + 1000);
    expect(got.headers['webhook-id']).toBe(body.id);
    const data = body.data as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(['inventory_item']);
    expect(data.inventory_item).toEqual(item);

    const log = await deliveries(h, hook.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      event_id: body.id,
      event_type: 'com.labstock.inventory-item.updated',
      status: 'succeeded',
      attempts: 1,
      next_attempt_at: null,
    });
    expect(log[0]!.log).toHaveLength(1);
    expect(log[0]!.log[0]).toMatchObject({ outcome: 'success', status_code: 204, error: null });
  });

  it('the signature covers the id, the timestamp and the body: changing any one of them fails verification', async () => {
    const { h, receiver } = await setup();
    const hook = await createHook(h, { url: receiver.url });
    await h.startWorker();
    await changeInstance(h);
    await receiver.waitFor(1);
    const got = receiver.posts[0]!;
    expect(() => Receiver.verify(got, hook.signing_key)).not.toThrow();
    const otherId = '0190a6f2-1111-7222-8333-444455556666';
    expect(() => Receiver.verify({ ...got, headers: { ...got.headers, 'webhook-id': otherId } }, hook.signing_key)).toThrow();
    expect(() =>
      Receiver.verify(
        { ...got, headers: { ...got.headers, 'webhook-timestamp': String(Number(got.headers['webhook-timestamp']) - 1) } },
        hook.signing_key,
      ),
    ).toThrow();
    expect(() =>
      Receiver.verify({ ...got, body: got.body.replace('"specversion":"1.0"', '"specversion":"1.0" ') }, hook.signing_key),
    ).toThrow();
    // And another webhook's key does not verify it.
    const other = await createHook(h, { url: receiver.url, event_types: ['type.deleted'] });
    expect(() => Receiver.verify(got, other.signing_key)).toThrow();
  });

  it('keeps webhook-id (= the event id) and the body across retries; every attempt is freshly timestamped and verifies', async () => {
    const { h, receiver } = await setup();
    const hook = await createHook(h, { url: receiver.url });
    // The receiver records a request before asking for the answer, so posts.length counts this one.
    receiver.respond = (req) =>
      req.method === 'OPTIONS' ? { status: 204 } : receiver.posts.length <= 2 ? { status: 500, body: 'not yet' } : { status: 204 };
    await h.startWorker();
    await changeInstance(h);
    await receiver.waitFor(3);
    const [first, second, third] = receiver.posts as [Received, Received, Received];
    const eventId = (JSON.parse(first.body) as { id: string }).id;
    for (const got of [first, second, third]) {
      expect(got.headers['webhook-id']).toBe(eventId);
      expect(got.body).toBe(first.body);
      expectSignedHeaders(got, hook.signing_key);
    }
    expect(Number(second.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(Number(first.headers['webhook-timestamp']));
    expect(Number(third.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(Number(second.headers['webhook-timestamp']));

    const [d] = await waitUntil(async () => {
      const l = await deliveries(h, hook.id);
      return l[0]?.status === 'succeeded' && l;
    }, 'the delivery to succeed');
    expect(d).toMatchObject({ event_id: eventId, status: 'succeeded', attempts: 3 });
    expect(d!.log.map((e) => [e.outcome, e.status_code, e.response_body])).toEqual([
      ['http_error', 500, 'not yet'],
      ['http_error', 500, 'not yet'],
      ['success', 204, ''],
    ]);
    expect(receiver.posts).toHaveLength(3);
  });

  it('a redelivery sends the same event with the same webhook-id', async () => {
    const { h, receiver } = await setup();
    const hook = await createHook(h, { url: receiver.url });
    const worker = await h.startWorker();
    await changeInstance(h);
    await receiver.waitFor(1);
    await worker.idle();
    const [original] = await deliveries(h, hook.id);
    const res = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/deliveries/${original!.id}/redeliver` });
    expect(res.statusCode, res.body).toBe(202);
    await receiver.waitFor(2);
    const [a, b] = receiver.posts as [Received, Received];
    expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
    expect(b.headers['webhook-id']).toBe(original!.event_id);
    expect(b.body).toBe(a.body);
    expectSignedHeaders(b, hook.signing_key);
  });

  it('an unsigned webhook gets no signature headers; switching is_signed on signs the next delivery', async () => {
    const { h, receiver } = await setup();
    const hook = await createHook(h, { url: receiver.url, is_signed: false });
    expect(hook.is_signed).toBe(false);
    const worker = await h.startWorker();
    await changeInstance(h);
    await receiver.waitFor(1);
    const unsigned = receiver.posts[0]!;
    expect(unsigned.headers['webhook-signature']).toBeUndefined();
    expect(unsigned.headers.signature).toBeUndefined();
    expect(unsigned.headers['webhook-timestamp']).toBeUndefined();
    expect(unsigned.headers['content-type']).toBe('application/json');
    expect(unsigned.headers['user-agent']).toMatch(/^Labstock-Webhooks\//);
    expect(unsigned.event?.type).toBe('com.labstock.inventory-item.updated');

    const put = await h.call(h.a.admin.token, { method: 'PUT', url: `/webhooks/${hook.id}`, payload: { is_signed: true } });
    expect(put.statusCode, put.body).toBe(200);
    await worker.idle();
    await changeInstance(h);
    await receiver.waitFor(2);
    expectSignedHeaders(receiver.posts[1]!, hook.signing_key);
  });
});

describe('the event body', () => {
  it('order-request events carry the request under order_request; ordered adds events and updated_by (one data key each)', async () => {
    const { h, receiver } = await setup();
    const hook = await createHook(h, { url: receiver.url, event_types: ['order-request.*'] });
    const worker = await h.startWorker();
    const lab = h.a.legacyLab;
    const created = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: {
        lab_id: lab.id,
        type_id: lab.typeId,
        name: 'Pipette tips',
        vendor_name: 'Eppendorf',
        catalog_number: 'EP-1',
        price: { amount: '12.50', currency: 'USD' },
        quantity: 2,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    await receiver.waitFor(1);
    await worker.idle();
    const first = receiver.posts[0]!;
    expectSignedHeaders(first, hook.signing_key);
    expect(first.event?.type).toBe('com.labstock.order-request.created');
    const createdData = (JSON.parse(first.body) as { data: Record<string, unknown> }).data;
    expect(Object.keys(createdData)).toEqual(['order_request']);
    expect(createdData.order_request).toEqual(created.json());

    const ordered = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/order-requests/${created.json().id}`,
      payload: { status: 'ORDERED' },
    });
    expect(ordered.statusCode, ordered.body).toBe(200);
    await receiver.waitFor(2);
    const second = receiver.posts[1]!;
    expectSignedHeaders(second, hook.signing_key);
    expect(second.headers['webhook-id']).not.toBe(first.headers['webhook-id']);
    expect(second.event?.type).toBe('com.labstock.order-request.ordered');
    const orderedData = (JSON.parse(second.body) as { data: Record<string, Record<string, unknown>> }).data;
    expect(Object.keys(orderedData)).toEqual(['order_request']);
    const request = orderedData.order_request!;
    expect(request).toMatchObject({ id: created.json().id, status: 'ORDERED' });
    expect(Array.isArray(request.events)).toBe(true);
    expect(request.updated_by).toMatchObject({ id: h.a.admin.id, email: h.a.admin.email });
  });
});
