import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../../src/delivery/worker.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { Receiver } from '../../helpers/receiver.js';

// POST /webhooks/{id}/rotate-secret (docs/product.md §8): a new whsec_ key; the old one keeps signing alongside it for
// 24 hours (space-separated in webhook-signature), so a receiver holding either key verifies; then only the new.

let h: Harness;
let receiver: Receiver;
let worker: Worker;
beforeAll(async () => {
  receiver = await new Receiver().start();
  h = await startHarness({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_RETRY_SCHEDULE: '50ms,100ms', WEBHOOK_POLL: '50ms' });
  worker = await h.startWorker();
});
afterAll(async () => {
  await h?.close();
  await receiver?.stop();
});

interface Webhook {
  id: string;
  name: string | null;
  url: string;
  event_types: string[];
  is_enabled: boolean;
  is_verified: boolean;
  is_signed: boolean;
  signing_key: string;
}
const KEY_RE = /^whsec_[A-Za-z0-9+/]{43}=$/;
const DAY_MS = 24 * 60 * 60 * 1000;

let seq = 0;
async function create(payload: Record<string, unknown> = {}): Promise<Webhook> {
  seq += 1;
  const res = await h.call(h.a.admin.token, {
    method: 'POST',
    url: '/webhooks',
    payload: {
      organization_id: h.a.orgId,
      name: 'Rotating',
      url: `${receiver.url}?w=${seq}`,
      event_types: ['order-request.created'],
      ...payload,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  await worker.idle(); // let the validation handshake settle so rows compare cleanly
  return res.json();
}

async function rotate(id: string): Promise<Webhook> {
  const res = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${id}/rotate-secret` });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.json();
}

const rowOf = (id: string) => h.deps.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Pings the webhook and returns what the receiver got. */
async function pingAndReceive(hook: Webhook) {
  const n = receiver.posts.length;
  const res = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/ping` });
  expect(res.statusCode, res.body).toBe(202);
  await receiver.waitFor(n + 1);
  const got = receiver.posts.find((p) => p.event?.id === res.json().event_id);
  expect(got).toBeDefined();
  return got!;
}

const verifies = (got: Parameters<typeof Receiver.verify>[0], key: string): boolean => {
  try {
    Receiver.verify(got, key);
    return true;
  } catch {
    return false;
  }
};

describe('POST /webhooks/{id}/rotate-secret', () => {
  it('answers 200 with the webhook carrying a new whsec_ key of 32 random bytes; nothing else changes', async () => {
    const hook = await create();
    const rotated = await rotate(hook.id);
    expect(rotated.signing_key).toMatch(KEY_RE);
    expect(Buffer.from(rotated.signing_key.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(rotated.signing_key).not.toBe(hook.signing_key);
    expect(rotated).toEqual({ ...hook, signing_key: rotated.signing_key });
    const get = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${hook.id}` });
    expect(get.json()).toEqual(rotated);
  });

  it('keeps the previous key for 24 hours in previous_signing_key / previous_key_expires_at', async () => {
    const hook = await create();
    const t0 = Date.now();
    await rotate(hook.id);
    const t1 = Date.now();
    const row = await rowOf(hook.id);
    expect(row.previous_signing_key).toBe(hook.signing_key);
    const expires = Date.parse(row.previous_key_expires_at!);
    expect(expires).toBeGreaterThanOrEqual(t0 + DAY_MS - 1000);
    expect(expires).toBeLessThanOrEqual(t1 + DAY_MS + 1000);
  });

  it('a second rotation keeps the key it replaces (not the oldest) and restarts the 24 hours', async () => {
    const hook = await create();
    const first = await rotate(hook.id);
    await h.deps.db
      .updateTable('webhooks')
      .set({ previous_key_expires_at: new Date(Date.now() + 60_000).toISOString() })
      .where('id', '=', hook.id)
      .execute();
    const second = await rotate(hook.id);
    expect(new Set([hook.signing_key, first.signing_key, second.signing_key]).size).toBe(3);
    const row = await rowOf(hook.id);
    expect(row.signing_key).toBe(second.signing_key);
    expect(row.previous_signing_key).toBe(first.signing_key);
    expect(Date.parse(row.previous_key_expires_at!)).toBeGreaterThan(Date.now() + DAY_MS - 60_000);
  });

  it('during the overlap every delivery is signed by both keys; a receiver holding either one verifies it', async () => {
    const hook = await create();
    const before = await pingAndReceive(hook);
    expect(String(before.headers['webhook-signature']).split(' ')).toHaveLength(1);

    const rotated = await rotate(hook.id);
    const got = await pingAndReceive(hook);
    const signatures = String(got.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    for (const s of signatures) expect(s).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
    expect(got.headers.signature).toBe(got.headers['webhook-signature']);
    expect(verifies(got, rotated.signing_key)).toBe(true);
    expect(verifies(got, hook.signing_key)).toBe(true);
    // Control: a key that was never this webhook's does not verify.
    const stranger = await create();
    expect(verifies(got, stranger.signing_key)).toBe(false);
  });

  it('once the overlap has passed, only the new key signs', async () => {
    const hook = await create();
    const rotated = await rotate(hook.id);
    await h.deps.db
      .updateTable('webhooks')
      .set({ previous_key_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', hook.id)
      .execute();
    const got = await pingAndReceive(hook);
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(got, rotated.signing_key)).toBe(true);
    expect(verifies(got, hook.signing_key)).toBe(false);
  });

  it('rotates disabled, unsigned and lab webhooks too', async () => {
    for (const payload of [{ is_enabled: false }, { is_signed: false }, { organization_id: undefined, lab_id: h.a.legacyLab.id }]) {
      const hook = await create(payload);
      const rotated = await rotate(hook.id);
      expect(rotated.signing_key).toMatch(KEY_RE);
      expect(rotated).toEqual({ ...hook, signing_key: rotated.signing_key });
      expect((await rowOf(hook.id)).previous_signing_key).toBe(hook.signing_key);
    }
  });

  it('a retry with the same Idempotency-Key answers the first response and rotates only once', async () => {
    const hook = await create();
    const call = () =>
      h.call(h.a.admin.token, {
        method: 'POST',
        url: `/webhooks/${hook.id}/rotate-secret`,
        headers: { 'idempotency-key': `rotate-${hook.id}` },
      });
    const first = await call();
    const second = await call();
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json()).toEqual(first.json());
    const row = await rowOf(hook.id);
    expect(row.signing_key).toBe(first.json().signing_key);
    expect(row.previous_signing_key).toBe(hook.signing_key);
  });
});
