import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test/helpers/harness.js';
import { Receiver } from '../../test/helpers/receiver.js';
import { createLabstockClient, eventKind, type LabstockClient, unwrap, verifyWebhook, WebhookVerificationError } from '../src/index.js';

// verifyWebhook on deliveries the real worker made to a real receiver (test/helpers/receiver.ts): the event comes
// back typed; a tampered body, a wrong key or a stale timestamp are refused.

const ENV = {
  WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
  WEBHOOK_POLL: '50ms',
  WEBHOOK_RETRY_SCHEDULE: '50ms,100ms',
  WEBHOOK_TIMEOUT_MS: '1000',
};

let h: Harness;
let api: LabstockClient;
let receiver: Receiver;
let hook: { id: string; signing_key: string };

beforeAll(async () => {
  h = await startHarness(ENV);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  api = createLabstockClient({ baseUrl: `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`, token: h.a.admin.token });
  receiver = await new Receiver().start();
  hook = await unwrap(
    api.POST('/webhooks', { body: { lab_id: h.a.migratedLab.id, url: receiver.url, event_types: ['inventory-item.updated'] } }),
  );
  await h.startWorker();
});
afterAll(async () => {
  await receiver?.stop();
  await h?.close();
});

/** Changes the migrated lab's first instance through the client; the worker delivers inventory-item.updated. */
async function deliverOne(quantity: string) {
  const before = receiver.posts.length;
  const { itemId, instanceIds } = h.a.migratedLab;
  await unwrap(
    api.PUT('/inventory-items/{itemId}/instances/{itemInstanceId}', {
      params: { path: { itemId, itemInstanceId: instanceIds[0]! } },
      body: { quantity },
    }),
  );
  await receiver.waitFor(before + 1);
  return receiver.posts[before]!;
}

describe('verifyWebhook', () => {
  it('returns the delivered event, typed by kind', async () => {
    const got = await deliverOne('4.5');
    const event = verifyWebhook(got.body, got.headers, hook.signing_key);
    expect(eventKind(event)).toBe('inventory-item.updated');
    if (event.type !== 'com.labstock.inventory-item.updated') throw new Error(`unexpected ${event.type}`);
    // Narrowed by `type`: data.inventory_item is the item, with its instances.
    expect(event.data.inventory_item.id).toBe(h.a.migratedLab.itemId);
    expect(event.data.inventory_item.instances.find((i) => i.id === h.a.migratedLab.instanceIds[0])?.quantity).toBe('4.5');
    expect(event.id).toBe(got.headers['webhook-id']);
    expect(JSON.parse(got.body)).toEqual(event);

    // A Fetch Headers object, as a server built on Request/Response gets them, verifies the same.
    const headers = new Headers();
    for (const [name, value] of Object.entries(got.headers)) if (typeof value === 'string') headers.set(name, value);
    expect(verifyWebhook(new TextEncoder().encode(got.body), headers, hook.signing_key)).toEqual(event);
  });

  it('refuses a tampered body, another key, a missing signature and a stale timestamp', async () => {
    const got = await deliverOne('5.5');
    const tampered = got.body.replace('"5.5"', '"500"');
    expect(tampered).not.toBe(got.body);
    expect(() => verifyWebhook(tampered, got.headers, hook.signing_key)).toThrow(WebhookVerificationError);

    const otherKey = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
    expect(() => verifyWebhook(got.body, got.headers, otherKey)).toThrow(WebhookVerificationError);

    const { 'webhook-signature': _s, signature: _t, ...unsigned } = got.headers;
    expect(() => verifyWebhook(got.body, unsigned, hook.signing_key)).toThrow(WebhookVerificationError);

    const stale = { ...got.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) };
    expect(() => verifyWebhook(got.body, stale, hook.signing_key)).toThrow(WebhookVerificationError);

    const notUtf8 = new Uint8Array([...new TextEncoder().encode(got.body.slice(0, -1)), 0xff, 0x7d]);
    expect(() => verifyWebhook(notUtf8, got.headers, hook.signing_key)).toThrow(WebhookVerificationError);
  });

  it('reads the Signature header when webhook-signature is missing', async () => {
    const got = await deliverOne('6.5');
    const { 'webhook-signature': _s, ...onlySignature } = got.headers;
    expect(onlySignature.signature).toBeDefined();
    expect(verifyWebhook(got.body, onlySignature, hook.signing_key).id).toBe(got.headers['webhook-id']);
  });

  it('verifies with the old and the new key during a rotation, and the ping event is typed too', async () => {
    const oldKey = hook.signing_key;
    const rotated = await unwrap(api.POST('/webhooks/{id}/rotate-secret', { params: { path: { id: hook.id } } }));
    expect(rotated.signing_key).not.toBe(oldKey);
    const got = await deliverOne('7.5');
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyWebhook(got.body, got.headers, oldKey).id).toBe(got.headers['webhook-id']);
    expect(verifyWebhook(got.body, got.headers, rotated.signing_key).id).toBe(got.headers['webhook-id']);

    const before = receiver.posts.length;
    await unwrap(api.POST('/webhooks/{id}/ping', { params: { path: { id: hook.id } } }));
    await receiver.waitFor(before + 1);
    const ping = receiver.posts[before]!;
    const event = verifyWebhook(ping.body, ping.headers, rotated.signing_key);
    if (event.type !== 'com.labstock.webhook.ping') throw new Error(`unexpected ${event.type}`);
    expect(event.data.webhook.id).toBe(hook.id);
    expect(eventKind(event)).toBe('webhook.ping');
  });
});
