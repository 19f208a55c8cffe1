import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/harness.js';
import { Receiver } from '../helpers/receiver.js';

let h: Harness;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await new Receiver().start();
  h = await startHarness({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_RETRY_SCHEDULE: '50ms,100ms,200ms' });
});
afterAll(async () => {
  await h?.close();
  await receiver?.stop();
});

describe('delivery end to end', () => {
  it('delivers a signed CloudEvent for a change, verified by the standardwebhooks package', async () => {
    const hook = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/webhooks',
      payload: { lab_id: h.a.migratedLab.id, url: receiver.url },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const worker = await h.startWorker();
    const item = h.a.migratedLab;
    const put = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${item.itemId}/instances/${item.instanceIds[0]}`,
      payload: { quantity: '7' },
    });
    expect(put.statusCode).toBe(200);
    await receiver.waitFor(1);
    const got = receiver.posts[0]!;
    const verified = Receiver.verify(got, hook.json().signing_key) as any;
    expect(verified.type).toBe('com.labstock.inventory-item.updated');
    expect(got.event?.type).toBe('com.labstock.inventory-item.updated');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers.signature).toBe(got.headers['webhook-signature']);
    expect(got.headers['user-agent']).toMatch(/^Labstock-Webhooks\//);
    expect((got.event!.data as any).inventory_item).toEqual(put.json());
    // The handshake ran too (OPTIONS answered 204 without WebHook-Allowed-Origin: not verified).
    const options = receiver.received.find((r) => r.method === 'OPTIONS');
    expect(options?.headers['webhook-request-origin']).toBe('https://labstock.test');
    await worker.idle();
    const log = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${hook.json().id}/deliveries` });
    expect(log.json()[0]).toMatchObject({ status: 'succeeded', attempts: 1, event_type: 'com.labstock.inventory-item.updated' });
    expect(log.json()[0].log[0]).toMatchObject({ outcome: 'success', status_code: 204 });
  });
});
