import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventMark } from '../helpers/events.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { alertEvents, inDays, ok } from './_setup.js';

// Several workers scan at once (on PostgreSQL, in parallel transactions): each alert is written, and its event
// emitted, exactly once; the open alert unique per item and cause decides (src/alerts/repository.ts openAlerts).

describe('reminders and alerts with several workers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('two workers scanning together send each alert once', async () => {
    const before = await eventMark(h);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const item = await ok(h, h.a.member.token, 'POST', '/inventory-items', {
        lab_id: h.a.legacyLab.id,
        name: `Reagent ${i}`,
        quantity: '1',
        auto_reminder: '1WEEK',
        expiration_date: inDays(i % 7),
      });
      ids.push(item.id);
    }
    for (const id of ids) await ok(h, h.a.member.token, 'PUT', `/inventory-items/${id}/minimum-quantity`, { minimum_quantity: '2' });

    const [one, two] = await Promise.all([h.startWorker({ ALERT_SCAN_INTERVAL: '1h' }), h.startWorker({ ALERT_SCAN_INTERVAL: '1h' })]);
    // Both ran at start; now both again, at the same moment, several times.
    for (let round = 0; round < 3; round++) await Promise.all([one!.runJobs(), two!.runJobs()]);
    await Promise.all([one!.idle(), two!.idle()]);

    const events = await alertEvents(h, before);
    const keys = events.map((e) => `${e.itemId}/${e.short}`).sort();
    const expected = ids.flatMap((id) => [`${id}/inventory-item.below-minimum`, `${id}/inventory-item.expiring`]).sort();
    expect(keys).toEqual(expected);
    const open = await h.deps.db.selectFrom('alerts').select(['item_id', 'cause']).where('cleared_at', 'is', null).execute();
    expect(open).toHaveLength(expected.length);
  });
});
