import { describe, expect, it } from 'vitest';
import { eventMark, eventsSince } from '../../helpers/events.js';
import { useHarness } from '../../helpers/use-harness.js';
import { createOrder, orderBody } from './_helpers.js';

// GET /order-requests/{id}/history: the request's whole history, oldest first, in the shape of the order-request
// webhook payloads' `events` (which carry its newest 20 entries: test/events/order-request-history-bound.test.ts).

const h = useHarness();

const history = (token: string, id: string) => h.call(token, { method: 'GET', url: `/order-requests/${id}/history` });

describe('GET /order-requests/{id}/history', () => {
  it('lists the moves and the detail changes, oldest first, with who and when', async () => {
    const order = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab));
    const approved = await h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${order.id}`, payload: { status: 'APPROVED' } });
    expect(approved.statusCode, approved.body).toBe(200);
    const patched = await h.call(h.a.member.token, {
      method: 'PATCH',
      url: `/order-requests/${order.id}`,
      payload: { purchase_order_number: 'PO-77' },
    });
    expect(patched.statusCode, patched.body).toBe(200);

    const res = await history(h.a.member.token, order.id);
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json() as { type: string; comment: string | null; created_at: string; created_by: { id: string } }[];
    expect(entries.map((e) => e.type)).toEqual(['CREATED', 'APPROVED', 'UPDATED']);
    expect(entries.map((e) => e.created_by.id)).toEqual([h.a.member.id, h.a.admin.id, h.a.member.id]);
    expect(entries[2]!.comment).toContain('PO-77');
    expect([...entries.map((e) => e.created_at)].sort()).toEqual(entries.map((e) => e.created_at));
  });

  it('is what the ordered event carries as events while the history is short', async () => {
    const order = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab));
    const mark = await eventMark(h);
    const ordered = await h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${order.id}`, payload: { status: 'ORDERED' } });
    expect(ordered.statusCode, ordered.body).toBe(200);
    const [event] = (await eventsSince(h, mark)).filter((e) => e.row.type.endsWith('order-request.ordered'));
    const data = (event!.event.data as { order_request: { id: string; events: unknown[] } }).order_request;
    expect(data.id).toBe(order.id);
    expect((await history(h.a.admin.token, order.id)).json()).toEqual(data.events);
  });
});
