import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { type Received, Receiver, type Responder } from '../helpers/receiver.js';
import { createHook, deliverySuite, getHook, type Hook } from './_setup.js';

// docs/product.md §8: is_verified is true once the URL answered the CloudEvents webhook validation handshake (OPTIONS with
// WebHook-Request-Origin; 2xx with a matching WebHook-Allowed-Origin or *), tried on create and on URL change.
// Rotating the secret keeps the old key signing alongside the new one for 24 h (space-separated signatures).

const ORIGIN = 'https://labstock.test'; // EVENT_SOURCE in the harness
const ENV = {
  WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
  WEBHOOK_RETRY_SCHEDULE: '50ms,100ms,150ms',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_POLL: '50ms',
};

const suite = deliverySuite(ENV);
const { changeInstance } = suite;
const setup = (): Promise<Harness> => suite.harness();

async function receiver(options?: (req: Received) => ReturnType<Responder>): Promise<Receiver> {
  const r = await suite.receiver();
  if (options) r.respond = (req) => (req.method === 'OPTIONS' ? options(req) : { status: 204 });
  return r;
}

async function putHook(hh: Harness, id: string, payload: Record<string, unknown>): Promise<Hook> {
  const res = await hh.call(hh.a.admin.token, { method: 'PUT', url: `/webhooks/${id}`, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const optionsOf = (r: Receiver) => r.received.filter((x) => x.method === 'OPTIONS');

function v1(key: string, got: Received): string {
  const secret = Buffer.from(key.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', secret)
    .update(`${String(got.headers['webhook-id'])}.${String(got.headers['webhook-timestamp'])}.${got.body}`)
    .digest('base64')}`;
}
const signaturesOf = (got: Received) => String(got.headers['webhook-signature']).split(' ');

describe('validation handshake', () => {
  it('sets is_verified only for a 2xx answer whose WebHook-Allowed-Origin is the origin or *; the client cannot set it', async () => {
    const hh = await setup();
    const target = await receiver(() => ({ status: 200, headers: { 'webhook-allowed-origin': '*' } }));
    const cases: { name: string; answer: ReturnType<Responder>; verified: boolean }[] = [
      { name: '200 + origin', answer: { status: 200, headers: { 'webhook-allowed-origin': ORIGIN } }, verified: true },
      { name: '204 + *', answer: { status: 204, headers: { 'webhook-allowed-origin': '*' } }, verified: true },
      { name: '200 without the header', answer: { status: 200 }, verified: false },
      {
        name: '200 + another origin',
        answer: { status: 200, headers: { 'webhook-allowed-origin': 'https://elsewhere.test' } },
        verified: false,
      },
      {
        name: '200 + origin with a path',
        answer: { status: 200, headers: { 'webhook-allowed-origin': `${ORIGIN}/other` } },
        verified: false,
      },
      { name: '403 + origin', answer: { status: 403, headers: { 'webhook-allowed-origin': ORIGIN } }, verified: false },
      { name: '500 + *', answer: { status: 500, headers: { 'webhook-allowed-origin': '*' } }, verified: false },
      {
        name: '307 to a URL that would verify',
        answer: { status: 307, headers: { location: target.url, 'webhook-allowed-origin': '*' } },
        verified: false,
      },
    ];
    const made: { name: string; r: Receiver; hook: Hook; verified: boolean }[] = [];
    for (const c of cases) {
      const r = await receiver(() => c.answer);
      // is_verified in the request is ignored: only the handshake sets it.
      const hook = await createHook(hh, { url: r.url, name: c.name, is_verified: true });
      expect(hook.is_verified, c.name).toBe(false);
      made.push({ name: c.name, r, hook, verified: c.verified });
    }
    const worker = await hh.startWorker();
    await worker.idle();
    for (const m of made) {
      const opts = optionsOf(m.r);
      expect(opts, m.name).toHaveLength(1);
      expect(opts[0]!.headers['webhook-request-origin'], m.name).toBe(ORIGIN);
      expect((await getHook(hh, m.hook.id)).is_verified, m.name).toBe(m.verified);
    }
    expect(target.received, 'the handshake followed a redirect').toHaveLength(0);
  });

  it('a URL change resets is_verified and redoes the handshake at the new URL; other changes keep it', async () => {
    const hh = await setup();
    const first = await receiver(() => ({ status: 200, headers: { 'webhook-allowed-origin': ORIGIN } }));
    const refuses = await receiver(() => ({ status: 200 }));
    const accepts = await receiver(() => ({ status: 204, headers: { 'webhook-allowed-origin': '*' } }));
    const hook = await createHook(hh, { url: first.url });
    const worker = await hh.startWorker();
    await worker.idle();
    expect((await getHook(hh, hook.id)).is_verified).toBe(true);

    // To a URL that does not consent: reset at once, and stays false after its handshake.
    expect((await putHook(hh, hook.id, { url: refuses.url })).is_verified).toBe(false);
    await worker.idle();
    expect(optionsOf(refuses)).toHaveLength(1);
    expect(optionsOf(refuses)[0]!.headers['webhook-request-origin']).toBe(ORIGIN);
    expect((await getHook(hh, hook.id)).is_verified).toBe(false);

    // To a URL that consents: false until its handshake, then true.
    expect((await putHook(hh, hook.id, { url: accepts.url })).is_verified).toBe(false);
    await worker.idle();
    expect(optionsOf(accepts)).toHaveLength(1);
    expect((await getHook(hh, hook.id)).is_verified).toBe(true);

    // The same URL again, or other fields: no reset and no new handshake.
    expect((await putHook(hh, hook.id, { url: accepts.url })).is_verified).toBe(true);
    expect((await putHook(hh, hook.id, { name: 'renamed', event_types: ['inventory-item.*'], is_signed: false })).is_verified).toBe(true);
    await worker.idle();
    expect(optionsOf(accepts)).toHaveLength(1);
    expect(optionsOf(first)).toHaveLength(1);
    expect((await getHook(hh, hook.id)).is_verified).toBe(true);

    // Back to a URL verified before: it is asked again.
    expect((await putHook(hh, hook.id, { url: first.url })).is_verified).toBe(false);
    await worker.idle();
    expect(optionsOf(first)).toHaveLength(2);
    expect((await getHook(hh, hook.id)).is_verified).toBe(true);
  });
});

describe('rotate-secret', () => {
  it('during the overlap each delivery carries two v1 signatures; a receiver with either the old or the new key verifies it', async () => {
    const hh = await setup();
    const r = await receiver();
    const hook = await createHook(hh, { url: r.url });
    const oldKey = hook.signing_key;
    const worker = await hh.startWorker();
    await changeInstance(hh);
    await r.waitFor(1);
    expect(signaturesOf(r.posts[0]!)).toEqual([v1(oldKey, r.posts[0]!)]);

    const rotated = await hh.call(hh.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/rotate-secret` });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const newKey = (rotated.json() as Hook).signing_key;
    expect(newKey).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(newKey).not.toBe(oldKey);
    expect((await getHook(hh, hook.id)).signing_key).toBe(newKey);
    const row = await hh.deps.db
      .selectFrom('webhooks')
      .select('previous_key_expires_at')
      .where('id', '=', hook.id)
      .executeTakeFirstOrThrow();
    const overlap = Date.parse(row.previous_key_expires_at!) - Date.now();
    expect(overlap).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);

    await worker.idle();
    await changeInstance(hh);
    await r.waitFor(2);
    const during = r.posts[1]!;
    const sigs = signaturesOf(during);
    expect(sigs).toHaveLength(2);
    expect(sigs.every((s) => /^v1,[A-Za-z0-9+/]{43}=$/.test(s))).toBe(true);
    expect([...sigs].sort()).toEqual([v1(oldKey, during), v1(newKey, during)].sort());
    expect(during.headers.signature).toBe(during.headers['webhook-signature']);
    expect(() => Receiver.verify(during, oldKey)).not.toThrow();
    expect(() => Receiver.verify(during, newKey)).not.toThrow();

    // When the overlap has ended (its end moved into the past here), only the new key signs.
    await hh.deps.db
      .updateTable('webhooks')
      .set({ previous_key_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', hook.id)
      .execute();
    await worker.idle();
    await changeInstance(hh);
    await r.waitFor(3);
    const after = r.posts[2]!;
    expect(signaturesOf(after)).toEqual([v1(newKey, after)]);
    expect(() => Receiver.verify(after, newKey)).not.toThrow();
    expect(() => Receiver.verify(after, oldKey)).toThrow();
  });

  it('a retry after a rotation is signed with both keys', async () => {
    const hh = await setup();
    const r = await receiver();
    r.respond = (req) => (req.method === 'POST' && r.posts.length === 1 ? { status: 500 } : { status: 204 });
    const hook = await createHook(hh, { url: r.url });
    const oldKey = hook.signing_key;
    // Rotate between the first attempt and its retry: the retry is signed at send time with both keys.
    const worker = await hh.startWorker({ WEBHOOK_RETRY_SCHEDULE: '400ms' });
    await changeInstance(hh);
    await r.waitFor(1);
    const rotated = await hh.call(hh.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/rotate-secret` });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const newKey = (rotated.json() as Hook).signing_key;
    await r.waitFor(2);
    await worker.idle();
    const [before, retry] = r.posts as [Received, Received];
    expect(retry.headers['webhook-id']).toBe(before.headers['webhook-id']);
    expect(signaturesOf(before)).toEqual([v1(oldKey, before)]);
    expect([...signaturesOf(retry)].sort()).toEqual([v1(oldKey, retry), v1(newKey, retry)].sort());
  });
});
