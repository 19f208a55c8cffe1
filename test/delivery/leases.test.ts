import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createWorker } from '../../src/delivery/worker.js';
import { loadConfig } from '../../src/shared/config.js';
import { openCountedHandle } from '../helpers/db-counter.js';
import { TEST_ENV } from '../helpers/harness.js';
import { createHook, deliverySuite, isClaim, waitUntil } from './_setup.js';

// A pending delivery under another worker's lease (a busy worker beside this one on PostgreSQL, or a process that
// died with the delivery in flight) is not due until the lease ends. An idle worker must sleep until then (or its
// poll), not claim in a loop: it once did, thousands of empty claims a second until the lease expired. Nor may
// it be woken by another schema's commits in the same PostgreSQL database.

const POLL_MS = 200;
const LEASE_LEFT_MS = 1500;
const ENV = { WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_POLL: `${POLL_MS}ms` };
const { setup, changeInstance, stopFirst } = deliverySuite(ENV);
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

describe('a delivery leased by a worker that died', () => {
  it('an idle worker sleeps until the lease ends instead of claiming in a loop, then delivers it once', async () => {
    const {
      h,
      rx: [receiver],
    } = await setup();
    const hook = await createHook(h, { url: receiver!.url, event_types: ['com.labstock.inventory-item.updated'] });
    await changeInstance(h); // no worker is running: the delivery waits, pending
    const leaseEnd = Date.now() + LEASE_LEFT_MS;
    const leased = await h.deps.db
      .updateTable('webhook_deliveries')
      .set({ lease_until: new Date(leaseEnd).toISOString(), leased_by: 'worker-that-died' })
      .where('webhook_id', '=', hook.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    expect(Number(leased.numUpdatedRows)).toBe(1);

    // The worker runs on its own connection, whose statements are counted.
    const claims: number[] = [];
    const counted = openCountedHandle(h, (text) => {
      if (isClaim(text)) claims.push(Date.now());
    });
    const config = loadConfig({ ...TEST_ENV, ...ENV, DATABASE_URL: h.database.url });
    const worker = createWorker({ db: counted.db, config, log: silent, pgSchema: h.database.pgSchema });
    stopFirst(async () => {
      await worker.stop();
      await counted.close();
    });
    await worker.start();
    // Commits of another Labstock schema in the same PostgreSQL database NOTIFY too, every 10 ms here (with their
    // schema as payload): they must not wake this worker, or it would claim once per foreign commit.
    const foreign = (async () => {
      if (!h.database.pgSchema) return;
      while (Date.now() < leaseEnd - 100) {
        await sql`select pg_notify('labstock_deliveries', 'another_schema')`.execute(h.deps.db);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();

    await receiver!.waitFor(1, LEASE_LEFT_MS + 5000);
    await foreign;
    const post = receiver!.posts[0]!;
    expect(post.at, 'sent while another worker held the lease').toBeGreaterThanOrEqual(leaseEnd - 5);
    const whileLeased = claims.filter((t) => t < leaseEnd).length;
    // The pattern does catch the claims: one at start, while leased, and the one that took the delivery after.
    expect(whileLeased).toBeGreaterThan(0);
    expect(claims.length).toBeGreaterThan(whileLeased);
    // At most one claim per poll interval and per wake-up while leased (~8 here); the spin made thousands.
    expect(whileLeased, `${whileLeased} claims in ${LEASE_LEFT_MS} ms of lease`).toBeLessThanOrEqual(
      Math.ceil(LEASE_LEFT_MS / POLL_MS) + 4,
    );

    const row = await waitUntil(async () => {
      const d = await h.deps.db
        .selectFrom('webhook_deliveries')
        .select(['status', 'attempts', 'leased_by'])
        .where('webhook_id', '=', hook.id)
        .executeTakeFirst();
      return d?.status === 'succeeded' && d;
    }, 'the delivery to be recorded');
    expect(row).toEqual({ status: 'succeeded', attempts: 1, leased_by: null });
    await worker.idle();
    expect(receiver!.posts).toHaveLength(1);
  });
});
