import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../../src/delivery/worker.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { Receiver } from '../../helpers/receiver.js';

// DELETE /webhooks/{id} (docs/product.md §8): 204 with no body; the webhook goes with its deliveries and their log, and
// nothing is sent to it any more, not even deliveries that were still pending. Other webhooks are untouched.

let h: Harness;
let receiver: Receiver;
let worker: Worker | null = null;
beforeAll(async () => {
  receiver = await new Receiver().start();
  h = await startHarness({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_RETRY_SCHEDULE: '50ms,100ms', WEBHOOK_POLL: '50ms' });
});
afterAll(async () => {
  await h?.close();
  await receiver?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function settle(): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await worker!.idle();
    const pending = await h.deps.db.selectFrom('webhook_deliveries').select('id').where('status', '=', 'pending').execute();
    if (pending.length === 0) return;
    if (Date.now() > deadline) throw new Error('deliveries still pending');
    await sleep(20);
  }
}

async function create(path: string, payload: Record<string, unknown> = {}): Promise<{ id: string; url: string }> {
  const res = await h.call(h.a.admin.token, {
    method: 'POST',
    url: '/webhooks',
    payload: { organization_id: h.a.orgId, url: `${receiver.url}?w=${path}`, ...payload },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const del = (id: string) => h.call(h.a.admin.token, { method: 'DELETE', url: `/webhooks/${id}` });

const rowsOf = async (id: string) => ({
  webhook: await h.deps.db.selectFrom('webhooks').select('id').where('id', '=', id).execute(),
  deliveries: await h.deps.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', id).execute(),
  attempts: await h.deps.db.selectFrom('webhook_attempts').select('id').where('webhook_id', '=', id).execute(),
});

/** A change in the legacy lab: one inventory-item.updated event for every matching webhook. */
async function causeEvent(quantity: string): Promise<void> {
  const res = await h.call(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${h.a.legacyLab.itemId}`, payload: { quantity } });
  expect(res.statusCode, res.body).toBe(200);
}

const postsTo = (path: string) => receiver.posts.filter((p) => p.path === `/hook?w=${path}`);

describe('DELETE /webhooks/{id}', () => {
  it('a delivery still pending when its webhook is deleted is never sent', async () => {
    // No worker yet: the event's deliveries wait in the queue while the webhook is deleted.
    const gone = await create('pending-gone');
    const kept = await create('pending-kept');
    await causeEvent('11');
    expect((await rowsOf(gone.id)).deliveries).toHaveLength(1);
    expect((await del(gone.id)).statusCode).toBe(204);
    expect(await rowsOf(gone.id)).toEqual({ webhook: [], deliveries: [], attempts: [] });

    worker = await h.startWorker();
    await receiver.waitFor(1);
    await settle();
    expect(postsTo('pending-kept')).toHaveLength(1);
    expect(postsTo('pending-gone')).toEqual([]);
    expect((await rowsOf(kept.id)).deliveries).toHaveLength(1);
  });

  it('answers 204 with an empty body and removes the webhook, its deliveries and their attempt log', async () => {
    const hook = await create('delivered');
    const ping = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/ping` });
    expect(ping.statusCode).toBe(202);
    await settle();
    const before = await rowsOf(hook.id);
    expect(before.deliveries).toHaveLength(1);
    expect(before.attempts.length).toBeGreaterThanOrEqual(1);

    const res = await del(hook.id);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect(await rowsOf(hook.id)).toEqual({ webhook: [], deliveries: [], attempts: [] });

    const get = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${hook.id}` });
    expect(get.statusCode).toBe(404);
    const log = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${hook.id}/deliveries` });
    expect(log.statusCode).toBe(404);
    const list = await h.call(h.a.admin.token, { method: 'GET', url: '/webhooks?per_page=100' });
    expect(list.json().map((w: { id: string }) => w.id)).not.toContain(hook.id);
  });

  it("leaves the organization's other webhooks, their deliveries and their log alone", async () => {
    const gone = await create('sibling-gone');
    const kept = await create('sibling-kept', { name: 'Kept' });
    await causeEvent('12');
    await settle();
    const keptBefore = await rowsOf(kept.id);
    expect(keptBefore.deliveries).toHaveLength(1);
    const keptLog = (await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${kept.id}/deliveries` })).json();
    const keptHook = (await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${kept.id}` })).json();

    expect((await del(gone.id)).statusCode).toBe(204);
    expect(await rowsOf(kept.id)).toEqual(keptBefore);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${kept.id}/deliveries` })).json()).toEqual(keptLog);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${kept.id}` })).json()).toEqual(keptHook);
  });

  it('nothing is sent to a deleted webhook afterwards, while the others still get their events', async () => {
    const gone = await create('after-gone');
    await create('after-kept');
    expect((await del(gone.id)).statusCode).toBe(204);
    const keptBefore = postsTo('after-kept').length;
    const n = receiver.posts.length;
    await causeEvent('13');
    await receiver.waitFor(n + 1);
    await settle();
    expect(postsTo('after-kept')).toHaveLength(keptBefore + 1);
    expect(postsTo('after-gone')).toEqual([]);
    expect(await rowsOf(gone.id)).toEqual({ webhook: [], deliveries: [], attempts: [] });
  });

  it('a delivery in flight when its webhook is deleted leaves no delivery and no log behind', async () => {
    const hook = await create('in-flight');
    receiver.respond = (req) =>
      req.path === '/hook?w=in-flight' && req.method === 'POST' ? { status: 204, delayMs: 300 } : { status: 204 };
    try {
      const n = receiver.posts.length;
      expect((await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/ping` })).statusCode).toBe(202);
      const deadline = Date.now() + 5000;
      while (receiver.posts.length === n && Date.now() < deadline) await sleep(5);
      expect(receiver.posts.length, 'the attempt has reached the receiver').toBe(n + 1);
      expect((await del(hook.id)).statusCode).toBe(204); // while the receiver still holds the response back
      await receiver.waitFor(n + 1);
      await sleep(50);
      await settle();
      expect(await rowsOf(hook.id)).toEqual({ webhook: [], deliveries: [], attempts: [] });
    } finally {
      receiver.respond = () => ({ status: 204 });
    }
  });

  it('a second delete of the same webhook is 404', async () => {
    const hook = await create('twice');
    expect((await del(hook.id)).statusCode).toBe(204);
    const again = await del(hook.id);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'not_found' });
  });

  it('deletes lab webhooks and disabled webhooks too', async () => {
    const lab = await create('lab', { organization_id: undefined, lab_id: h.a.migratedLab.id });
    const off = await create('off', { is_enabled: false });
    for (const hook of [lab, off]) {
      expect((await del(hook.id)).statusCode).toBe(204);
      expect((await rowsOf(hook.id)).webhook).toEqual([]);
    }
  });
});
