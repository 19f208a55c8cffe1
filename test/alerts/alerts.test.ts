import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/shared/config.js';
import { eventMark } from '../helpers/events.js';
import { type Harness, startHarness, TEST_ENV } from '../helpers/harness.js';
import { Receiver } from '../helpers/receiver.js';
import { alertEvents, inDays, ok } from './_setup.js';

// Reminders and alerts fire once per item and cause, clear when the condition goes, and fire again when it comes
// back (docs/alerts.md); legacy and migrated labs; a below-minimum crossing after a PUT of the quantity; nothing is
// lost across a restart of the worker. The worker's job runs at start and on worker.runJobs().

describe('reminders and alerts', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32' });
  });
  afterAll(async () => {
    await h.close();
  });

  /** A worker that scans at start (awaited here) and when asked; its interval is too long to run by itself. */
  const worker = async () => {
    const w = await h.startWorker({ ALERT_SCAN_INTERVAL: '1h' });
    await w.idle();
    return w;
  };

  it('a legacy item expiring within its auto_reminder window fires once, clears when the date moves out, fires again when it comes back', async () => {
    const w = await worker();
    const before = await eventMark(h);
    const item = await ok(h, h.a.member.token, 'POST', '/inventory-items', {
      lab_id: h.a.legacyLab.id,
      name: 'Tris buffer',
      quantity: '2',
      auto_reminder: '1WEEK',
      expiration_date: inDays(3),
    });
    // Out of the window, or without a reminder: nothing.
    await ok(h, h.a.member.token, 'POST', '/inventory-items', {
      lab_id: h.a.legacyLab.id,
      name: 'Later buffer',
      auto_reminder: '1WEEK',
      expiration_date: inDays(10),
    });
    await ok(h, h.a.member.token, 'POST', '/inventory-items', {
      lab_id: h.a.legacyLab.id,
      name: 'Unreminded buffer',
      auto_reminder: 'NONE',
      expiration_date: inDays(1),
    });
    await w.runJobs();
    await w.runJobs();
    const first = await alertEvents(h, before);
    expect(first.map((e) => [e.short, e.itemId])).toEqual([['inventory-item.expiring', item.id]]);
    expect(first[0]!.labId).toBe(h.a.legacyLab.id);
    expect(first[0]!.item.name).toBe('Tris buffer');
    expect(first[0]!.alert).toMatchObject({
      cause: 'expiring',
      auto_reminder: '1WEEK',
      expiration_date: inDays(3),
      instance_ids: [],
      minimum_quantity: null,
      quantity: '2',
    });

    const cleared = await eventMark(h);
    await ok(h, h.a.member.token, 'PATCH', `/inventory-items/${item.id}`, { expiration_date: inDays(30) });
    await w.runJobs();
    expect(await alertEvents(h, cleared)).toEqual([]);

    const again = await eventMark(h);
    await ok(h, h.a.member.token, 'PATCH', `/inventory-items/${item.id}`, { expiration_date: inDays(0) });
    await w.runJobs();
    await w.runJobs();
    const second = await alertEvents(h, again);
    expect(second.map((e) => [e.short, e.itemId, e.alert.expiration_date])).toEqual([['inventory-item.expiring', item.id, inDays(0)]]);
  });

  it("a migrated lab's instances expire within the item's window: the alert names them", async () => {
    const w = await worker();
    const before = await eventMark(h);
    const item = await ok(h, h.a.member.token, 'POST', '/inventory-items', {
      lab_id: h.a.migratedLab.id,
      name: 'Anti-actin',
      auto_reminder: '2WEEK',
      instances: [
        { quantity: '1', expiration_date: inDays(60) },
        { quantity: '1', expiration_date: inDays(5) },
        { quantity: '1', expiration_date: inDays(-2) },
      ],
    });
    await w.runJobs();
    const events = await alertEvents(h, before);
    expect(events.map((e) => [e.short, e.itemId])).toEqual([['inventory-item.expiring', item.id]]);
    const expiring = item.instances.filter((i: any) => i.expiration_date <= inDays(14)).map((i: any) => i.id);
    expect(expiring).toHaveLength(2);
    expect([...events[0]!.alert.instance_ids].sort()).toEqual([...expiring].sort());
    expect(events[0]!.alert.expiration_date).toBe(inDays(-2));
    expect(events[0]!.item.instances).toHaveLength(3);

    // Archiving the instances in the window clears the alert; a new one in the window fires it again.
    const cleared = await eventMark(h);
    for (const id of expiring) await ok(h, h.a.member.token, 'POST', `/inventory-items/${item.id}/instances/${id}/archive`);
    await w.runJobs();
    expect(await alertEvents(h, cleared)).toEqual([]);
    const open = await h.deps.db.selectFrom('alerts').select('cleared_at').where('item_id', '=', item.id).execute();
    expect(open.map((a) => a.cleared_at === null)).toEqual([false]);
    await ok(h, h.a.member.token, 'POST', `/inventory-items/${item.id}/instances`, { quantity: '1', expiration_date: inDays(1) });
    await w.runJobs();
    expect((await alertEvents(h, cleared)).map((e) => e.short)).toEqual(['inventory-item.expiring']);
  });

  it('crossing below the minimum after a PUT of the quantity fires once; back at the minimum clears; below again fires again', async () => {
    const w = await worker();
    const item = await ok(h, h.a.member.token, 'POST', '/inventory-items', {
      lab_id: h.a.legacyLab.id,
      name: 'Pipette tips',
      quantity: '10',
    });
    await ok(h, h.a.member.token, 'PUT', `/inventory-items/${item.id}/minimum-quantity`, { minimum_quantity: '5' });
    const before = await eventMark(h);
    await w.runJobs();
    expect(await alertEvents(h, before)).toEqual([]);

    await ok(h, h.a.member.token, 'PUT', `/inventory-items/${item.id}`, { quantity: '2' });
    await w.runJobs();
    await w.runJobs();
    const fired = await alertEvents(h, before);
    expect(fired.map((e) => [e.short, e.itemId])).toEqual([['inventory-item.below-minimum', item.id]]);
    expect(fired[0]!.alert).toMatchObject({ cause: 'below_minimum', minimum_quantity: '5', quantity: '2', expiration_date: null });

    const back = await eventMark(h);
    await ok(h, h.a.member.token, 'PUT', `/inventory-items/${item.id}`, { quantity: '5' });
    await w.runJobs();
    expect(await alertEvents(h, back)).toEqual([]);
    await ok(h, h.a.member.token, 'PUT', `/inventory-items/${item.id}`, { quantity: '4.5' });
    await w.runJobs();
    const again = await alertEvents(h, back);
    expect(again.map((e) => [e.short, e.alert.quantity])).toEqual([['inventory-item.below-minimum', '4.5']]);
  });

  it('an item in both conditions fires both causes; deleting it clears them', async () => {
    const w = await worker();
    const before = await eventMark(h);
    const item = await ok(h, h.a.member.token, 'POST', '/inventory-items', {
      lab_id: h.a.legacyLab.id,
      name: 'Agarose',
      quantity: '1',
      auto_reminder: '3MONTH',
      expiration_date: inDays(80),
    });
    await ok(h, h.a.member.token, 'PUT', `/inventory-items/${item.id}/minimum-quantity`, { minimum_quantity: '2' });
    await w.runJobs();
    expect((await alertEvents(h, before)).map((e) => e.short).sort()).toEqual(['inventory-item.below-minimum', 'inventory-item.expiring']);
    const res = await h.call(h.a.admin.token, { method: 'DELETE', url: `/inventory-items/${item.id}` });
    expect(res.statusCode).toBeLessThan(300);
    await w.runJobs();
    const rows = await h.deps.db.selectFrom('alerts').select(['cause', 'cleared_at']).where('item_id', '=', item.id).execute();
    expect(rows.map((r) => [r.cause, r.cleared_at !== null]).sort()).toEqual([
      ['below_minimum', true],
      ['expiring', true],
    ]);
  });

  it('restarting the worker loses nothing: a condition that arose while no worker ran fires at the next start', async () => {
    const w = await worker();
    await w.stop();
    const before = await eventMark(h);
    const item = await ok(h, h.a.member.token, 'POST', '/inventory-items', {
      lab_id: h.a.legacyLab.id,
      name: 'Glycerol',
      auto_reminder: '1MONTH',
      expiration_date: inDays(20),
    });
    expect(await alertEvents(h, before)).toEqual([]);
    await worker();
    expect((await alertEvents(h, before)).map((e) => [e.short, e.itemId])).toEqual([['inventory-item.expiring', item.id]]);
  });

  it('delivers the alert kinds to webhooks that name them or take every kind, not to one that names other kinds', async () => {
    const receivers = await Promise.all([0, 1, 2].map(() => new Receiver().start()));
    try {
      const [all, named, other] = receivers as [Receiver, Receiver, Receiver];
      const hook = (url: string, event_types: string[]) =>
        ok(h, h.a.admin.token, 'POST', '/webhooks', { organization_id: h.a.orgId, url, event_types });
      await hook(all.url, []);
      await hook(named.url, ['inventory-item.below-minimum']);
      await hook(other.url, ['inventory-item.created']);
      const w = await h.startWorker({ ALERT_SCAN_INTERVAL: '1h' });
      await w.idle();
      const item = await ok(h, h.a.member.token, 'POST', '/inventory-items', {
        lab_id: h.a.legacyLab.id,
        name: 'Ethanol 70%',
        quantity: '1',
      });
      await ok(h, h.a.member.token, 'PUT', `/inventory-items/${item.id}/minimum-quantity`, { minimum_quantity: '3' });
      await w.runJobs();
      // Other tests' workers share the database and may deliver some of these: wait for the receivers (waitFor counts the POSTs).
      await all.waitFor(3);
      await named.waitFor(1);
      await other.waitFor(1);
      await w.idle();
      const types = (r: Receiver) => r.received.filter((x) => x.method === 'POST').map((x) => x.event?.type);
      expect(types(all)).toEqual(expect.arrayContaining(['com.labstock.inventory-item.below-minimum']));
      expect(types(named)).toEqual(['com.labstock.inventory-item.below-minimum']);
      expect(types(other)).toEqual(['com.labstock.inventory-item.created']);
    } finally {
      await Promise.all(receivers.map((r) => r.stop()));
      await h.deps.db.deleteFrom('webhook_attempts').execute();
      await h.deps.db.deleteFrom('webhook_deliveries').execute();
      await h.deps.db.deleteFrom('webhooks').execute();
    }
  });

  it('scans by itself every ALERT_SCAN_INTERVAL; a value that is not a duration stops start-up', async () => {
    expect(() => loadConfig({ ...TEST_ENV, ALERT_SCAN_INTERVAL: 'soon' })).toThrow(/ALERT_SCAN_INTERVAL/);
    const w = await h.startWorker({ ALERT_SCAN_INTERVAL: '100ms' });
    await w.idle();
    const before = await eventMark(h);
    const item = await ok(h, h.a.member.token, 'POST', '/inventory-items', {
      lab_id: h.a.legacyLab.id,
      name: 'Falcon tubes',
      quantity: '0',
    });
    await ok(h, h.a.member.token, 'PUT', `/inventory-items/${item.id}/minimum-quantity`, { minimum_quantity: '1' });
    const deadline = Date.now() + 5000;
    while ((await alertEvents(h, before)).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await w.stop();
    expect((await alertEvents(h, before)).map((e) => [e.short, e.itemId])).toEqual([['inventory-item.below-minimum', item.id]]);
  });
});
