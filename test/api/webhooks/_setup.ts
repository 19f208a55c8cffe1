// Shared by the happy-path tests of the webhook endpoints that deliver (ping, redeliver, list-deliveries, replay):
// one harness per file with a running worker, and one receiver behind every webhook the file creates, each webhook
// told apart by the ?w= query of its URL.
import { afterAll, beforeAll, expect } from 'vitest';
import type { Worker } from '../../../src/delivery/worker.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { Receiver } from '../../helpers/receiver.js';

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// Set by the beforeAll that useDeliveringApp() registers; ES module bindings are live, so a test file that
// imports them reads the values of its own run.
export let h: Harness;
export let receiver: Receiver;
export let worker: Worker;

/** Registers the file's beforeAll (receiver, harness, worker) and afterAll; call it once, at the top level. */
export function useDeliveringApp(): void {
  beforeAll(async () => {
    receiver = await new Receiver().start();
    h = await startHarness({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_RETRY_SCHEDULE: '50ms,100ms', WEBHOOK_POLL: '50ms' });
    worker = await h.startWorker();
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.stop();
  });
}

/** An organization-wide webhook of org A (unless `payload` says otherwise) to the receiver, at `?w=<path>`. */
export async function create(
  path: string,
  payload: Record<string, unknown> = {},
): Promise<{ id: string; name: string | null; url: string; signing_key: string }> {
  const res = await h.call(h.a.admin.token, {
    method: 'POST',
    url: '/webhooks',
    payload: { organization_id: h.a.orgId, url: `${receiver.url}?w=${path}`, ...payload },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** POST /webhooks/{id}/ping; expects 202. */
export async function ping(id: string): Promise<{ id: string; event_id: string; status: string }> {
  const res = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${id}/ping` });
  expect(res.statusCode, res.body).toBe(202);
  return res.json();
}

/** What the receiver got for the webhook created with `path`. */
export const postsTo = (path: string) => receiver.posts.filter((p) => p.path === `/hook?w=${path}`);

/** Waits until the worker is idle and no delivery is pending (10 s at the most). */
export async function settle(): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await worker.idle();
    const pending = await h.deps.db.selectFrom('webhook_deliveries').select('id').where('status', '=', 'pending').execute();
    if (pending.length === 0) return;
    if (Date.now() > deadline) throw new Error('deliveries still pending');
    await new Promise((r) => setTimeout(r, 20));
  }
}
