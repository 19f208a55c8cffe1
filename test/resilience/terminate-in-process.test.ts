// Issue 9, item 1: pg_terminate_backend on every connection of the app and its delivery worker (idle, blocked
// mid-request, and under a load of concurrent requests). The process must live on (an unhandled 'error' of the
// pool or of a checked-out client used to end it), requests in flight answer our JSON 503 or are retried, later
// requests succeed, the worker's LISTEN comes back and no delivery is lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/harness.js';
import { Receiver } from '../helpers/receiver.js';
import { expectOkOr503, onPostgres, PG_ONLY, PgAdmin, waitFor, within } from './_pg.js';

let h: Harness;
let admin: PgAdmin;
let appName: string;
let receiver: Receiver;

beforeAll(async () => {
  if (!onPostgres) return;
  h = await startHarness({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32' });
  admin = await new PgAdmin().open();
  appName = `labstock/${h.database.pgSchema}`;
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await receiver?.stop();
  await admin?.close();
  await h?.close();
});

const get = (url: string) => h.call(h.a.admin.token, { method: 'GET', url });
let qty = 1;
const putInstance = (i = 0) =>
  h.call(h.a.admin.token, {
    method: 'PUT',
    url: `/inventory-items/${h.a.migratedLab.itemId}/instances/${h.a.migratedLab.instanceIds[i]}`,
    payload: { quantity: String(qty++) },
  });

async function expectServing(): Promise<void> {
  // The first write after a kill may still meet a connection whose death the pool has not read yet (a 503 the
  // client retries); within seconds everything succeeds again.
  await waitFor('a successful write', 10_000, async () => (await putInstance()).statusCode === 200);
  for (let i = 0; i < 10; i++) {
    const res = await get(`/inventory-items/${h.a.legacyLab.itemId}`);
    expect(res.statusCode, res.body).toBe(200);
  }
  const health = await get('/healthz');
  expect(health.json()).toEqual({ status: 'ok', database: 'ok' });
}

describe.skipIf(!onPostgres)(`the app survives pg_terminate_backend (${PG_ONLY})`, () => {
  it('on idle connections: reads right after the kill are retried on a fresh connection and succeed', async () => {
    await Promise.all(Array.from({ length: 5 }, () => get('/user'))); // fill the pool (5 connections in tests)
    const killed = await admin.kill(appName);
    expect(killed.length).toBeGreaterThan(0);
    for (let i = 0; i < 20; i++) {
      const res = await within(10_000, 'GET after the kill', get('/user'));
      expect(res.statusCode, res.body).toBe(200);
    }
    await expectServing();
    expect((await admin.backends(appName)).some((b) => killed.includes(b.pid))).toBe(false);
  });

  it('on connections blocked mid-request: writes answer a JSON 503, reads are retried, nothing hangs', async () => {
    const locker = await new PgAdmin().open();
    try {
      await locker.query('begin');
      await locker.query(
        `lock table ${h.database.pgSchema}.inventory_item_instances, ${h.database.pgSchema}.inventory_items in access exclusive mode`,
      );
      // Five requests, as many as the pool's connections (a sixth would wait for one and then for the lock).
      const writes = [0, 1, 0].map((i) => putInstance(i));
      const reads = [1, 2].map(() => get(`/inventory-items/${h.a.migratedLab.itemId}`));
      await waitFor(
        'five requests waiting on the lock',
        10_000,
        async () => (await admin.backends(appName)).filter((b) => b.wait_event_type === 'Lock').length === 5,
      );
      expect(await admin.kill(appName)).toHaveLength(5);
      // The writes' transactions died with their connections: a JSON 503 at once (the client retries).
      for (const res of await within(10_000, 'writes in flight', Promise.all(writes))) {
        expectOkOr503(res.statusCode, res.body, 'PUT in flight');
        expect(res.statusCode, res.body).toBe(503);
        expect(res.headers['retry-after']).toBe('1');
      }
      // The reads were tried again on a new connection, where they wait for the lock like before.
      await locker.query('rollback');
      for (const res of await within(10_000, 'reads in flight', Promise.all(reads))) expect(res.statusCode, res.body).toBe(200);
    } finally {
      await locker.close();
    }
    await expectServing();
  });

  it('under a load of concurrent requests killed every 250 ms: every answer is 2xx or a JSON 503, then all succeed', async () => {
    const statuses = new Map<number, number>();
    let stop = false;
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const res = await within(
          15_000,
          'a request under load',
          i % 3 === 0 ? putInstance(n % 2) : i % 3 === 1 ? get(`/inventory-items?lab_id=${h.a.migratedLab.id}`) : get('/user'),
        );
        expectOkOr503(res.statusCode, res.body, `request ${i} of client ${n}`);
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      }
    };
    const clients = Array.from({ length: 12 }, (_, n) => client(n));
    let kills = 0;
    for (let round = 0; round < 12; round++) {
      await new Promise((r) => setTimeout(r, 250));
      kills += (await admin.kill(appName)).length;
    }
    stop = true;
    await Promise.all(clients);
    expect(kills).toBeGreaterThan(12);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(50);
    expect([...statuses.keys()].every((s) => s === 200 || s === 503)).toBe(true);
    await expectServing();
  });

  it("the worker's LISTEN comes back and no delivery is lost across kills", async () => {
    // A short lease: a delivery whose result could not be recorded (its connection was killed) is sent again soon.
    await h.startWorker({ WEBHOOK_LEASE: '1s', WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_POLL: '200ms' });
    const hook = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/webhooks',
      payload: { organization_id: h.a.orgId, url: receiver.url },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    await waitFor('the worker LISTENing', 10_000, async () => (await admin.listener(appName)) !== undefined);
    const firstListener = await admin.listener(appName);

    const changed = new Set<string>();
    const change = async () => {
      // A client retries a 503; each 200 is one inventory-item.updated event to deliver.
      for (;;) {
        const res = await within(15_000, 'a change', putInstance());
        expectOkOr503(res.statusCode, res.body, 'PUT');
        if (res.statusCode === 200) return;
      }
    };
    const before = new Set((await h.deps.db.selectFrom('events').select('id').execute()).map((e) => e.id));
    for (let round = 0; round < 4; round++) {
      await Promise.all([change(), change(), change()]);
      await admin.kill(appName);
    }
    await waitFor('a new LISTEN connection', 15_000, async () => {
      const pid = await admin.listener(appName);
      return pid !== undefined && pid !== firstListener;
    });
    for (let i = 0; i < 3; i++) await change();
    const events = (await h.deps.db.selectFrom('events').select('id').execute()).map((e) => e.id).filter((id) => !before.has(id));
    for (const id of events) changed.add(id);
    expect(changed.size).toBeGreaterThanOrEqual(15); // a 503 whose commit went through adds one
    await waitFor(
      'every event at the receiver',
      20_000,
      () => new Set(receiver.posts.map((p) => String(p.headers['webhook-id']))).size >= changed.size,
    );
    const arrived = new Set(receiver.posts.map((p) => String(p.headers['webhook-id'])));
    for (const id of changed) expect(arrived.has(id), `event ${id} delivered`).toBe(true);
  });
});
