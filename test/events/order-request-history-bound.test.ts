import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventMark, eventsSince, expectMatchesPublishedSchema, publishedEventSchema, type StoredEvent } from '../helpers/events.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { createOrder, orderBody } from '../helpers/orders.js';
import { Receiver } from '../helpers/receiver.js';

// docs/webhooks.md "Order request history in events": the `events` array that order-request.ordered and
// order-request.updated carry is the request's newest 20 history entries, oldest first, so an event's size does not
// depend on how often the request was edited and the events table grows linearly with the edits (each event used to
// carry the whole history: 598 edits wrote 43 MB). GET /order-requests/{id}/history keeps every entry.

/** The bound docs/webhooks.md promises, written out here rather than read from src/. */
const DOCUMENTED_LIMIT = 20;
const EDITS = 300;

let h: Harness;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await new Receiver().start();
  h = await startHarness({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_POLL: '50ms' });
});
afterAll(async () => {
  await h?.close();
  await receiver?.stop();
});

interface Entry {
  type: string;
  comment: string | null;
  created_at: string;
  created_by: { id: string };
}

const bytes = (e: StoredEvent): number => Buffer.byteLength(JSON.stringify(e.event));
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
/** Same-length values, so that every edit's history entry has the same size. */
const note = (i: number): string => `note-${String(i).padStart(4, '0')}`;

describe('order-request events carry a bounded history', () => {
  it(`${EDITS} edits: each updated event is the same size after 50 as after ${EDITS}, storage grows linearly, ordered is bounded too`, async () => {
    const hook = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/webhooks',
      payload: { organization_id: h.a.orgId, url: receiver.url, event_types: ['order-request.ordered'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const order = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab));
    const mark = await eventMark(h);
    for (let i = 1; i <= EDITS; i += 1) {
      const res = await h.call(h.a.member.token, { method: 'PATCH', url: `/order-requests/${order.id}`, payload: { notes: note(i) } });
      expect(res.statusCode, res.body).toBe(200);
    }

    const updated = (await eventsSince(h, mark)).filter((e) => e.row.type === 'com.labstock.order-request.updated');
    expect(updated.length).toBe(EDITS);
    const sizes = updated.map(bytes);
    // The newest event is as large as the 50th (within 1%), not six times larger.
    expect(Math.abs(sizes[EDITS - 1]! - sizes[49]!)).toBeLessThanOrEqual(sizes[49]! / 100);
    // Linear storage: edits 251-300 add as many bytes as edits 51-100 (a history per event makes it about 4x).
    const early = sum(sizes.slice(50, 100));
    const late = sum(sizes.slice(EDITS - 50));
    expect(late / early).toBeGreaterThan(0.99);
    expect(late / early).toBeLessThan(1.01);

    // The contract's shape stays: the newest entries, oldest first, the last one naming this edit, valid against
    // the published schema; the whole history is still at GET /order-requests/{id}/history.
    const last = updated.at(-1)!;
    await expectMatchesPublishedSchema(h, 'order-request.updated', last.event);
    const carried = (last.event.data as { order_request: { events: Entry[] } }).order_request.events;
    const historyRes = await h.call(h.a.member.token, { method: 'GET', url: `/order-requests/${order.id}/history` });
    expect(historyRes.statusCode, historyRes.body).toBe(200);
    const history = historyRes.json() as Entry[];
    expect(history.length).toBe(EDITS + 1);
    expect(history[0]!.type).toBe('CREATED');
    expect(carried).toEqual(history.slice(-DOCUMENTED_LIMIT));
    expect(carried.at(-1)!.comment).toBe(`notes: ${JSON.stringify(note(EDITS - 1))} → ${JSON.stringify(note(EDITS))}`);

    // The ordered event, as a real receiver gets it: the newest entries too, ending with ORDERED.
    const worker = await h.startWorker();
    const ordered = await h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${order.id}`, payload: { status: 'ORDERED' } });
    expect(ordered.statusCode, ordered.body).toBe(200);
    await receiver.waitFor(1);
    await worker.idle();
    expect(receiver.posts.length).toBe(1);
    const delivered = JSON.parse(receiver.posts[0]!.body);
    expect(delivered.type).toBe('com.labstock.order-request.ordered');
    await expectMatchesPublishedSchema(h, 'order-request.ordered', delivered);
    const full = (await h.call(h.a.member.token, { method: 'GET', url: `/order-requests/${order.id}/history` })).json() as Entry[];
    expect(full.length).toBe(EDITS + 2);
    expect(delivered.data.order_request.events).toEqual(full.slice(-DOCUMENTED_LIMIT));
    expect(delivered.data.order_request.events.at(-1).type).toBe('ORDERED');
    expect(delivered.data.order_request.updated_by.id).toBe(h.a.admin.id);
  }, 180_000); // 300 requests one after another: 10-30 s on a busy 2-core machine, so more room than the default 60 s.

  it('the published schemas of ordered and updated state the bound', async () => {
    for (const short of ['order-request.ordered', 'order-request.updated'] as const) {
      const schema = (await publishedEventSchema(h, short)) as any;
      expect(schema.properties.data.properties.order_request.properties.events.maxItems).toBe(DOCUMENTED_LIMIT);
    }
  });

  it('a request with fewer entries than the bound still carries its whole history', async () => {
    const order = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab));
    const mark = await eventMark(h);
    const res = await h.call(h.a.member.token, { method: 'PATCH', url: `/order-requests/${order.id}`, payload: { notes: 'one' } });
    expect(res.statusCode, res.body).toBe(200);
    const [event] = (await eventsSince(h, mark)).filter((e) => e.row.type === 'com.labstock.order-request.updated');
    const carried = (event!.event.data as { order_request: { events: Entry[] } }).order_request.events;
    expect(carried.map((e) => e.type)).toEqual(['CREATED', 'UPDATED']);
  });
});
