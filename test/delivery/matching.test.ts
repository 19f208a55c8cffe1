import { describe, expect, it } from 'vitest';
import type { Worker } from '../../src/delivery/worker.js';
import type { Harness } from '../helpers/harness.js';
import type { Received, Receiver } from '../helpers/receiver.js';
import { createHookAs as createHook, deliveriesAs as deliveries, deliverySuite, getHookAs as getHook } from './_setup.js';

// docs/product.md §8: which webhooks get which events. "A lab webhook gets that lab's events; an org webhook gets all of
// the org's." event_types: full type strings, short resource.kind, resource.*, or empty/omitted for all. Disabled
// webhooks get nothing. "Delivery requires [is_verified] only when WEBHOOK_REQUIRE_VERIFICATION is on." Another
// organization never receives anything.

const ENV = {
  WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
  WEBHOOK_RETRY_SCHEDULE: '50ms,100ms,150ms',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_POLL: '50ms',
};
const T = (short: string) => `com.labstock.${short}`;

const { harness: setup, receiver } = deliverySuite(ENV);

const typesOf = (r: Receiver) => r.posts.map((p) => p.event?.type).sort();
const labOf = (p: Received) => {
  const data = (JSON.parse(p.body) as { data: Record<string, { lab?: { id: string } }> }).data;
  return Object.values(data)[0]!.lab?.id;
};

let qty = 10;
/** Events of lab A's migrated lab: inventory-item.updated. */
async function changeInstance(hh: Harness, org: 'a' | 'b' = 'a'): Promise<void> {
  qty += 1;
  const o = hh[org];
  const res = await hh.call(o.admin.token, {
    method: 'PUT',
    url: `/inventory-items/${o.migratedLab.itemId}/instances/${o.migratedLab.instanceIds[0]}`,
    payload: { quantity: String(qty) },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Events of the legacy lab: inventory-item.updated. */
async function changeLegacyItem(hh: Harness, org: 'a' | 'b' = 'a'): Promise<void> {
  qty += 1;
  const o = hh[org];
  const res = await hh.call(o.admin.token, {
    method: 'PUT',
    url: `/inventory-items/${o.legacyLab.itemId}`,
    payload: { quantity: String(qty) },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** order-request.created in the given lab; with `order`, then order-request.ordered. */
async function orderRequest(hh: Harness, lab: { id: string; typeId: string }, order = false, org: 'a' | 'b' = 'a'): Promise<string> {
  const token = hh[org].admin.token;
  const res = await hh.call(token, {
    method: 'POST',
    url: '/order-requests',
    payload: {
      lab_id: lab.id,
      type_id: lab.typeId,
      name: 'Gloves',
      vendor_name: 'Kimtech',
      catalog_number: `G-${qty++}`,
      price: { amount: '5.00', currency: 'USD' },
      quantity: 1,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  if (order) {
    const put = await hh.call(token, { method: 'PUT', url: `/order-requests/${res.json().id}`, payload: { status: 'ORDERED' } });
    expect(put.statusCode, put.body).toBe(200);
  }
  return res.json().id;
}

async function settle(worker: Worker, ...expected: [Receiver, number][]): Promise<void> {
  await Promise.all(expected.map(([r, n]) => r.waitFor(n)));
  await worker.idle();
}

describe('scope', () => {
  it("a lab webhook gets only its lab's events; an organization webhook gets every event of its organization", async () => {
    const hh = await setup();
    const token = hh.a.admin.token;
    const [rLegacy, rMigrated, rOrg] = [await receiver(), await receiver(), await receiver()];
    const legacyHook = await createHook(hh, token, { lab_id: hh.a.legacyLab.id, url: rLegacy.url });
    const migratedHook = await createHook(hh, token, { lab_id: hh.a.migratedLab.id, url: rMigrated.url });
    const orgHook = await createHook(hh, token, { organization_id: hh.a.orgId, url: rOrg.url });
    const worker = await hh.startWorker();

    await changeLegacyItem(hh);
    await changeInstance(hh);
    await orderRequest(hh, hh.a.otherLab);
    await settle(worker, [rLegacy, 1], [rMigrated, 1], [rOrg, 3]);

    expect(rLegacy.posts.map(labOf)).toEqual([hh.a.legacyLab.id]);
    expect(rMigrated.posts.map(labOf)).toEqual([hh.a.migratedLab.id]);
    expect(rOrg.posts.map(labOf).sort()).toEqual([hh.a.legacyLab.id, hh.a.migratedLab.id, hh.a.otherLab.id].sort());
    expect(typesOf(rOrg)).toEqual([T('inventory-item.updated'), T('inventory-item.updated'), T('order-request.created')]);
    expect(await deliveries(hh, token, legacyHook.id)).toHaveLength(1);
    expect(await deliveries(hh, token, migratedHook.id)).toHaveLength(1);
    expect(await deliveries(hh, token, orgHook.id)).toHaveLength(3);
    // The same event reaches both the lab and the organization webhook, under the same webhook-id.
    expect(rOrg.posts.map((p) => p.headers['webhook-id'])).toContain(rLegacy.posts[0]!.headers['webhook-id']);
  });
});

describe('event_types', () => {
  it('full, short and resource.* entries filter; [] and an omitted list mean every event', async () => {
    const hh = await setup();
    const token = hh.a.admin.token;
    const r = {
      full: await receiver(),
      short: await receiver(),
      wildcard: await receiver(),
      empty: await receiver(),
      omitted: await receiver(),
    };
    const hooks = {
      full: await createHook(hh, token, { organization_id: hh.a.orgId, url: r.full.url, event_types: [T('order-request.created')] }),
      short: await createHook(hh, token, { organization_id: hh.a.orgId, url: r.short.url, event_types: ['order-request.ordered'] }),
      wildcard: await createHook(hh, token, { organization_id: hh.a.orgId, url: r.wildcard.url, event_types: ['inventory-item.*'] }),
      empty: await createHook(hh, token, { organization_id: hh.a.orgId, url: r.empty.url, event_types: [] }),
      omitted: await createHook(hh, token, { organization_id: hh.a.orgId, url: r.omitted.url }),
    };
    expect(hooks.short.event_types).toEqual([T('order-request.ordered')]);
    expect(hooks.empty.event_types).toEqual([]);
    expect(hooks.omitted.event_types).toEqual([]);
    const worker = await hh.startWorker();

    await changeInstance(hh); // inventory-item.updated
    await orderRequest(hh, hh.a.legacyLab, true); // order-request.created, order-request.ordered
    await settle(worker, [r.full, 1], [r.short, 1], [r.wildcard, 1], [r.empty, 3], [r.omitted, 3]);

    const all = [T('inventory-item.updated'), T('order-request.created'), T('order-request.ordered')];
    expect(typesOf(r.full)).toEqual([T('order-request.created')]);
    expect(typesOf(r.short)).toEqual([T('order-request.ordered')]);
    expect(typesOf(r.wildcard)).toEqual([T('inventory-item.updated')]);
    expect(typesOf(r.empty)).toEqual(all);
    expect(typesOf(r.omitted)).toEqual(all);
    expect((await deliveries(hh, token, hooks.full.id)).map((d) => d.event_type)).toEqual([T('order-request.created')]);

    // A changed filter applies to the next events.
    const put = await hh.call(token, {
      method: 'PUT',
      url: `/webhooks/${hooks.full.id}`,
      payload: { event_types: ['inventory-item.updated'] },
    });
    expect(put.statusCode, put.body).toBe(200);
    await changeInstance(hh);
    await orderRequest(hh, hh.a.legacyLab);
    await settle(worker, [r.full, 2], [r.empty, 5]);
    expect(typesOf(r.full)).toEqual([T('inventory-item.updated'), T('order-request.created')]);
  });
});

describe('disabled webhooks', () => {
  it('get nothing: not when created disabled, not when disabled with deliveries queued, not the skipped events after re-enabling', async () => {
    const hh = await setup();
    const token = hh.a.admin.token;
    const [rOff, rLater, rOn] = [await receiver(), await receiver(), await receiver()];
    const off = await createHook(hh, token, { organization_id: hh.a.orgId, url: rOff.url, is_enabled: false });
    expect(off.is_enabled).toBe(false);
    const later = await createHook(hh, token, { organization_id: hh.a.orgId, url: rLater.url });
    await createHook(hh, token, { organization_id: hh.a.orgId, url: rOn.url });

    // No worker yet: the event is queued for the enabled webhooks only.
    await changeInstance(hh);
    expect(await deliveries(hh, token, off.id)).toHaveLength(0);
    expect(await deliveries(hh, token, later.id)).toHaveLength(1);
    // Disabled while its delivery waits: that delivery is not sent.
    const put = await hh.call(token, { method: 'PUT', url: `/webhooks/${later.id}`, payload: { is_enabled: false } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().is_enabled).toBe(false);

    const worker = await hh.startWorker();
    await settle(worker, [rOn, 1]);
    const [queued] = await deliveries(hh, token, later.id);
    expect(queued!.status).toBe('cancelled');
    expect(queued!.log).toHaveLength(0);

    await changeInstance(hh); // while disabled: skipped
    await settle(worker, [rOn, 2]);
    expect(await deliveries(hh, token, later.id)).toHaveLength(1);
    expect(await deliveries(hh, token, off.id)).toHaveLength(0);

    // Re-enabled: only events from now on.
    const again = await hh.call(token, { method: 'PUT', url: `/webhooks/${later.id}`, payload: { is_enabled: true } });
    expect(again.statusCode, again.body).toBe(200);
    await changeInstance(hh);
    await settle(worker, [rOn, 3], [rLater, 1]);
    expect(rLater.posts).toHaveLength(1);
    expect(rLater.posts[0]!.headers['webhook-id']).toBe(rOn.posts[2]!.headers['webhook-id']);
    expect(rOff.posts).toHaveLength(0);
  });
});

describe('WEBHOOK_REQUIRE_VERIFICATION', () => {
  const answersHandshake = (r: Receiver) => {
    r.respond = (req) =>
      req.method === 'OPTIONS' ? { status: 200, headers: { 'webhook-allowed-origin': 'https://labstock.test' } } : { status: 204 };
  };

  it('off (the default): a webhook that did not pass the handshake still gets events', async () => {
    const hh = await setup();
    const r = await receiver(); // answers OPTIONS 204 without WebHook-Allowed-Origin
    const hook = await createHook(hh, hh.a.admin.token, { organization_id: hh.a.orgId, url: r.url });
    const worker = await hh.startWorker();
    await worker.idle();
    expect((await getHook(hh, hh.a.admin.token, hook.id)).is_verified).toBe(false);
    await changeInstance(hh);
    await settle(worker, [r, 1]);
    expect(r.posts).toHaveLength(1);
  });

  it('on: only verified webhooks get events', async () => {
    const hh = await setup({ WEBHOOK_REQUIRE_VERIFICATION: 'true' });
    const token = hh.a.admin.token;
    const [rYes, rNo] = [await receiver(), await receiver()];
    answersHandshake(rYes);
    const yes = await createHook(hh, token, { organization_id: hh.a.orgId, url: rYes.url });
    const no = await createHook(hh, token, { lab_id: hh.a.migratedLab.id, url: rNo.url, is_verified: true });
    const worker = await hh.startWorker();
    await worker.idle();
    expect((await getHook(hh, token, yes.id)).is_verified).toBe(true);
    expect((await getHook(hh, token, no.id)).is_verified).toBe(false);

    await changeInstance(hh);
    await settle(worker, [rYes, 1]);
    expect(await deliveries(hh, token, no.id)).toHaveLength(0);
    expect(rNo.posts).toHaveLength(0);
    expect(rYes.posts).toHaveLength(1);
  });

  it('on: a queued delivery is not sent to a new URL that has not passed the handshake', async () => {
    const hh = await setup({ WEBHOOK_REQUIRE_VERIFICATION: 'true' });
    const token = hh.a.admin.token;
    const [rVerified, rNew] = [await receiver(), await receiver()];
    answersHandshake(rVerified); // rNew answers OPTIONS 204 without WebHook-Allowed-Origin: never verified
    const hook = await createHook(hh, token, { organization_id: hh.a.orgId, url: rVerified.url });
    const first = await hh.startWorker();
    await first.idle();
    expect((await getHook(hh, token, hook.id)).is_verified).toBe(true);
    await first.stop();

    await changeInstance(hh); // queued for the verified webhook
    expect(await deliveries(hh, token, hook.id)).toHaveLength(1);
    const moved = await hh.call(token, { method: 'PUT', url: `/webhooks/${hook.id}`, payload: { url: rNew.url } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().is_verified).toBe(false);

    const worker = await hh.startWorker();
    await worker.idle();
    expect(rNew.received.filter((r) => r.method === 'OPTIONS')).toHaveLength(1);
    expect((await getHook(hh, token, hook.id)).is_verified).toBe(false);
    expect(rNew.posts, 'an event was POSTed to a URL that never passed the validation handshake').toHaveLength(0);
    expect(rVerified.posts).toHaveLength(0);
  });

  it('on: a test ping is not sent to a webhook that has not passed the handshake', async () => {
    const hh = await setup({ WEBHOOK_REQUIRE_VERIFICATION: 'true' });
    const token = hh.a.admin.token;
    const r = await receiver(); // answers OPTIONS 204 without WebHook-Allowed-Origin
    const hook = await createHook(hh, token, { organization_id: hh.a.orgId, url: r.url });
    const worker = await hh.startWorker();
    await worker.idle();
    expect((await getHook(hh, token, hook.id)).is_verified).toBe(false);
    const ping = await hh.call(token, { method: 'POST', url: `/webhooks/${hook.id}/ping` });
    expect([202, 409]).toContain(ping.statusCode);
    await worker.idle();
    expect(r.posts, 'a ping was POSTed to a URL that never passed the validation handshake').toHaveLength(0);
  });
});

describe('tenancy', () => {
  it("another organization never receives: its webhooks see none of this organization's events and cannot subscribe to them", async () => {
    const hh = await setup();
    const [rA, rBOrg, rBLab] = [await receiver(), await receiver(), await receiver()];
    const aHook = await createHook(hh, hh.a.admin.token, { organization_id: hh.a.orgId, url: rA.url });
    const bOrg = await createHook(hh, hh.b.admin.token, { organization_id: hh.b.orgId, url: rBOrg.url });
    const bLab = await createHook(hh, hh.b.admin.token, { lab_id: hh.b.legacyLab.id, url: rBLab.url });
    // B cannot point a webhook at A's organization or at one of A's labs.
    for (const payload of [{ organization_id: hh.a.orgId }, { lab_id: hh.a.legacyLab.id }, { lab_id: hh.a.migratedLab.id }]) {
      const res = await hh.call(hh.b.admin.token, { method: 'POST', url: '/webhooks', payload: { ...payload, url: rBOrg.url } });
      expect(res.statusCode, res.body).toBe(404);
    }
    const worker = await hh.startWorker();

    await changeInstance(hh);
    await changeLegacyItem(hh);
    await orderRequest(hh, hh.a.legacyLab, true);
    await settle(worker, [rA, 4]);
    expect(await deliveries(hh, hh.b.admin.token, bOrg.id)).toHaveLength(0);
    expect(await deliveries(hh, hh.b.admin.token, bLab.id)).toHaveLength(0);
    expect(rBOrg.posts).toHaveLength(0);
    expect(rBLab.posts).toHaveLength(0);

    // And the other way round.
    await changeLegacyItem(hh, 'b');
    await settle(worker, [rBOrg, 1], [rBLab, 1]);
    expect(rA.posts).toHaveLength(4);
    expect(await deliveries(hh, hh.a.admin.token, aHook.id)).toHaveLength(4);
    expect(rBLab.posts.map(labOf)).toEqual([hh.b.legacyLab.id]);
  });
});
