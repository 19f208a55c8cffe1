import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/harness.js';
import { Receiver } from '../helpers/receiver.js';

let h: Harness;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await new Receiver().start();
  h = await startHarness({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_RETRY_SCHEDULE: '10s', WEBHOOK_POLL: '50ms' });
});
afterAll(async () => {
  await h?.close();
  await receiver?.stop();
});

const count = async (table: 'events' | 'webhook_deliveries' | 'webhook_attempts') =>
  Number(
    (
      await h.deps.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const metric = (text: string, name: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(name));
  return line ? Number(line.split(' ').pop()) : Number.NaN;
};

describe('retention', () => {
  it('prunes finished deliveries, their attempts and events past retention, and keeps anything pending', async () => {
    const hook = (
      await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { lab_id: h.a.legacyLab.id, url: receiver.url } })
    ).json();
    const worker = await h.startWorker({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_RETRY_SCHEDULE: '10s', WEBHOOK_POLL: '50ms' });
    receiver.respond = () => ({ status: 204 });
    await h.call(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${h.a.legacyLab.itemId}`, payload: { quantity: '11' } });
    await receiver.waitFor(1);
    receiver.respond = () => ({ status: 500 });
    await h.call(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${h.a.legacyLab.itemId}`, payload: { quantity: '12' } });
    await receiver.waitFor(2);
    await worker.idle();
    await worker.stop();

    const deliveries = await h.deps.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'status', 'event_id'])
      .where('webhook_id', '=', hook.id)
      .orderBy('created_at')
      .execute();
    expect(deliveries.map((d) => d.status)).toEqual(['succeeded', 'pending']);
    // Age everything by a year: the succeeded delivery and its event are past retention, the pending one is not done.
    const old = new Date(Date.now() - 365 * 86_400_000).toISOString();
    await h.deps.db.updateTable('webhook_deliveries').set({ created_at: old }).execute();
    await h.deps.db.updateTable('webhook_attempts').set({ attempted_at: old }).execute();
    await h.deps.db.updateTable('events').set({ created_at: old }).execute();
    const eventsBefore = await count('events');

    const pruner = await h.startWorker({ WEBHOOK_RETENTION: '30d', WEBHOOK_RETRY_SCHEDULE: '10s', WEBHOOK_POLL: '50ms' });
    await pruner.idle();
    await pruner.stop();

    const left = await h.deps.db.selectFrom('webhook_deliveries').select(['id', 'status']).execute();
    expect(left.map((d) => d.id)).toEqual([deliveries[1]!.id]);
    expect(await count('webhook_attempts')).toBe(0);
    // Only the event whose delivery is still pending survives.
    const events = await h.deps.db.selectFrom('events').select('id').execute();
    expect(events.map((e) => e.id)).toEqual([deliveries[1]!.event_id]);
    expect(eventsBefore).toBeGreaterThan(1);
  });
});

describe('delivery metrics', () => {
  it('counts attempts by outcome and shows the queue', async () => {
    const before = await h.call(null, { method: 'GET', url: '/metrics' });
    const successBefore = metric(before.body, 'labstock_webhook_attempts_total{outcome="success"}') || 0;
    const created = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/webhooks',
      payload: { lab_id: h.a.migratedLab.id, url: receiver.url },
    });
    expect(created.statusCode).toBe(201);
    receiver.respond = () => ({ status: 204 });
    const worker = await h.startWorker({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_POLL: '50ms' });
    await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${h.a.migratedLab.itemId}/instances/${h.a.migratedLab.instanceIds[0]}`,
      payload: { quantity: '4' },
    });
    await worker.idle();
    await worker.stop();
    const after = (await h.call(null, { method: 'GET', url: '/metrics' })).body;
    expect(metric(after, 'labstock_webhook_attempts_total{outcome="success"}')).toBe(successBefore + 1);
    expect(metric(after, 'labstock_webhook_delivery_latency_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(after).toMatch(/^labstock_webhook_queue_depth \d+/m);
    expect(after).toMatch(/^labstock_webhook_oldest_pending_seconds [\d.e+-]+/m);

    // A delivery waiting for a worker shows in the queue depth and its age.
    await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${h.a.migratedLab.itemId}/instances/${h.a.migratedLab.instanceIds[0]}`,
      payload: { quantity: '5' },
    });
    await new Promise((r) => setTimeout(r, 150));
    const queued = (await h.call(null, { method: 'GET', url: '/metrics' })).body;
    const pending = await h.deps.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(metric(queued, 'labstock_webhook_queue_depth')).toBe(Number(pending.n));
    expect(Number(pending.n)).toBeGreaterThanOrEqual(1);
    expect(metric(queued, 'labstock_webhook_oldest_pending_seconds')).toBeGreaterThan(0.1);
  });
});
