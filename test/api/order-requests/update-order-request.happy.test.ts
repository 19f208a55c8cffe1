import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import {
  counts,
  createOrder,
  DATETIME_RE,
  expectEnvelope,
  historyRows,
  moveThrough,
  ORDER_FIELDS,
  orderBody,
  orderEvents,
  orderIn,
  orderRow,
  putStatus,
  STATUSES,
  type Status,
  TRANSITIONS,
  userOf,
} from './_helpers.js';

const h = useHarness();

const ALLOWED: [Status, Status][] = STATUSES.flatMap((from) => TRANSITIONS[from].map((to) => [from, to] as [Status, Status]));

describe('PUT /order-requests/{id}: allowed transitions (docs/product.md §4)', () => {
  it('the table has the 12 transitions of docs/product.md §4', () => {
    expect(ALLOWED).toHaveLength(12);
  });

  it.each(ALLOWED)('%s -> %s: 200, status moves, one history row', async (from, to) => {
    const start = await orderIn(h, h.a.admin.token, h.a.legacyLab, from);
    expect(start.status).toBe(from);
    const historyBefore = await historyRows(h, start.id);
    const res = await putStatus(h, h.a.member.token, start.id, to);
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json();
    expect(Object.keys(o).sort()).toEqual(ORDER_FIELDS);
    expect(o.status).toBe(to);
    expect(o.id).toBe(start.id);
    expect(o.updated_at).toMatch(DATETIME_RE);
    expect(Date.parse(o.updated_at)).toBeGreaterThanOrEqual(Date.parse(start.updated_at));
    // Who requested it does not change with who moves it.
    expect(o.requested_by.id).toBe(h.a.admin.id);
    expect(o.created_by.id).toBe(h.a.admin.id);
    // Unchanged business fields.
    for (const f of [
      'item_name',
      'vendor_name',
      'catalog_number',
      'quantity',
      'unit_price',
      'total_price',
      'lab',
      'type',
      'requested_at',
    ] as const) {
      expect(o[f]).toEqual(start[f]);
    }

    const history = await historyRows(h, start.id);
    expect(history).toHaveLength(historyBefore.length + 1);
    const last = history[history.length - 1]!;
    expect(last.type).toBe(to);
    expect(last.created_by).toBe(h.a.member.id);
    expect(last.created_at).toBe(o.updated_at);

    const row = await orderRow(h, start.id);
    expect(row?.status).toBe(to);
    expect(row?.updated_by).toBe(h.a.member.id);

    const got = await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${start.id}` });
    expect(got.json()).toEqual(o);
  });
});

describe('PUT /order-requests/{id}: no-op updates', () => {
  it.each(STATUSES)('setting the current status %s: 200, nothing changes, no history, no event', async (status) => {
    const start = await orderIn(h, h.a.admin.token, h.a.legacyLab, status);
    const before = await counts(h);
    const historyBefore = await historyRows(h, start.id);
    const res = await putStatus(h, h.a.member.token, start.id, status);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(start);
    expect(await historyRows(h, start.id)).toEqual(historyBefore);
    expect(await counts(h)).toEqual(before);
    expect((await orderRow(h, start.id))?.updated_by).toBe(h.a.admin.id);
  });

  it('an empty body {} is 200 and changes nothing', async () => {
    const start = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'APPROVED');
    const before = await counts(h);
    const res = await h.call(h.a.member.token, { method: 'PUT', url: `/order-requests/${start.id}`, payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(start);
    expect(await counts(h)).toEqual(before);
  });
});

describe('PUT /order-requests/{id}: reopen and final', () => {
  it('CANCELLED -> CREATED reopens, and the reopened request can be ordered again', async () => {
    const o = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'CANCELLED');
    const reopened = await moveThrough(h, h.a.admin.token, o.id, ['CREATED']);
    expect(reopened.status).toBe('CREATED');
    const ordered = await moveThrough(h, h.a.admin.token, o.id, ['APPROVED', 'ORDERED']);
    expect(ordered.status).toBe('ORDERED');
    expect((await historyRows(h, o.id)).map((r) => r.type)).toEqual(['CREATED', 'CANCELLED', 'CREATED', 'APPROVED', 'ORDERED']);
  });

  it('RECEIVED is final: every other status is refused, the same status is a no-op', async () => {
    const o = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'RECEIVED');
    for (const to of STATUSES.filter((s) => s !== 'RECEIVED')) {
      const res = await putStatus(h, h.a.admin.token, o.id, to);
      expect(res.statusCode, `${to}: ${res.body}`).toBe(409);
      expect(res.json().allowed).toEqual([]);
    }
    const same = await putStatus(h, h.a.admin.token, o.id, 'RECEIVED');
    expect(same.statusCode).toBe(200);
    expect(same.json().status).toBe('RECEIVED');
  });

  it('the full history of a long path is recorded in order, with who did each step', async () => {
    const o = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab));
    await moveThrough(h, h.a.admin.token, o.id, ['APPROVED', 'ORDERED', 'BACKORDERED']);
    await moveThrough(h, h.a.member.token, o.id, ['ORDERED', 'RECEIVED']);
    const history = await historyRows(h, o.id);
    expect(history.map((r) => [r.type, r.created_by])).toEqual([
      ['CREATED', h.a.member.id],
      ['APPROVED', h.a.admin.id],
      ['ORDERED', h.a.admin.id],
      ['BACKORDERED', h.a.admin.id],
      ['ORDERED', h.a.member.id],
      ['RECEIVED', h.a.member.id],
    ]);
  });
});

describe('PUT /order-requests/{id}: events', () => {
  it('CREATED -> ORDERED emits one ordered event carrying the request, its history and updated_by', async () => {
    const admin = await userOf(h, h.a.admin.token);
    const member = await userOf(h, h.a.member.token);
    const o = await createOrder(h, h.a.admin.token, orderBody(h.a.migratedLab, { quantity: 5 }));
    const before = await counts(h);
    const res = await putStatus(h, h.a.member.token, o.id, 'ORDERED');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(await counts(h)).toMatchObject({ events: before.events + 1, history: before.history + 1 });

    const events = await orderEvents(h, 'ordered', o.id);
    expect(events).toHaveLength(1);
    const e = events[0]!;
    expectEnvelope(e, 'com.labstock.order-request.ordered', 'order_request');
    expect(e.row.organization_id).toBe(h.a.orgId);
    expect(e.row.lab_id).toBe(h.a.migratedLab.id);

    const payload = e.event.data.order_request;
    const { events: history, updated_by: updatedBy, ...rest } = payload;
    expect(rest).toEqual(body);
    expect(Object.keys(payload).sort()).toEqual([...ORDER_FIELDS, 'events', 'updated_by'].sort());
    expect(payload.lab.uses_instances).toBe(true);
    expect(updatedBy).toEqual(member);
    expect(history).toHaveLength(2);
    for (const entry of history) {
      expect(Object.keys(entry).sort()).toEqual(['comment', 'created_at', 'created_by', 'type']);
      expect(entry.created_at).toMatch(DATETIME_RE);
      expect(entry.comment).toBeNull();
    }
    expect(history.map((x: any) => x.type)).toEqual(['CREATED', 'ORDERED']);
    expect(history[0].created_by).toEqual(admin);
    expect(history[1].created_by).toEqual(member);
    expect(history[0].created_at).toBe(o.requested_at);
    expect(history[1].created_at).toBe(body.updated_at);
  });

  it('APPROVED -> ORDERED emits the ordered event with the three history entries', async () => {
    const o = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'APPROVED');
    await moveThrough(h, h.a.admin.token, o.id, ['ORDERED']);
    const events = await orderEvents(h, 'ordered', o.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.event.data.order_request.events.map((x: any) => x.type)).toEqual(['CREATED', 'APPROVED', 'ORDERED']);
    expect(events[0]!.event.data.order_request.status).toBe('ORDERED');
  });

  it('BACKORDERED -> ORDERED does not emit another ordered event', async () => {
    const o = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'BACKORDERED');
    expect(await orderEvents(h, 'ordered', o.id)).toHaveLength(1);
    const before = await counts(h);
    await moveThrough(h, h.a.admin.token, o.id, ['ORDERED']);
    expect(await orderEvents(h, 'ordered', o.id)).toHaveLength(1);
    expect((await counts(h)).events).toBe(before.events);
  });

  it('reopened and ordered again: a second ordered event (CREATED -> ORDERED)', async () => {
    const o = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'ORDERED');
    await moveThrough(h, h.a.admin.token, o.id, ['CANCELLED', 'CREATED', 'ORDERED']);
    const events = await orderEvents(h, 'ordered', o.id);
    expect(events).toHaveLength(2);
    expect(events[1]!.event.data.order_request.events.map((x: any) => x.type)).toEqual([
      'CREATED',
      'ORDERED',
      'CANCELLED',
      'CREATED',
      'ORDERED',
    ]);
  });

  it.each([
    ['CREATED', 'APPROVED'],
    ['CREATED', 'CANCELLED'],
    ['APPROVED', 'CANCELLED'],
    ['ORDERED', 'BACKORDERED'],
    ['ORDERED', 'CANCELLED'],
    ['BACKORDERED', 'CANCELLED'],
    ['CANCELLED', 'CREATED'],
  ] as [Status, Status][])('%s -> %s emits no event (no such event kind)', async (from, to) => {
    const o = await orderIn(h, h.a.admin.token, h.a.legacyLab, from);
    const before = await counts(h);
    await moveThrough(h, h.a.admin.token, o.id, [to]);
    expect((await counts(h)).events).toBe(before.events);
  });

  it('RECEIVED emits one received event whose data.order_request is the response body', async () => {
    const o = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'ORDERED');
    const res = await putStatus(h, h.a.member.token, o.id, 'RECEIVED');
    expect(res.statusCode).toBe(200);
    const events = await orderEvents(h, 'received', o.id);
    expect(events).toHaveLength(1);
    expectEnvelope(events[0]!, 'com.labstock.order-request.received', 'order_request');
    expect(events[0]!.event.data.order_request).toEqual(res.json());
    expect(events[0]!.event.data.order_request.status).toBe('RECEIVED');
    expect(events[0]!.row.lab_id).toBe(h.a.legacyLab.id);
    // Receiving never re-emits ordered.
    expect(await orderEvents(h, 'ordered', o.id)).toHaveLength(1);
  });

  it('BACKORDERED -> RECEIVED also emits received', async () => {
    const o = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'BACKORDERED');
    await moveThrough(h, h.a.admin.token, o.id, ['RECEIVED']);
    expect(await orderEvents(h, 'received', o.id)).toHaveLength(1);
  });
});

describe('PUT /order-requests/{id}: concurrency', () => {
  it('simultaneous PUT ORDERED from CREATED: one transition, one history row, one ordered event', async () => {
    const o = await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab));
    const results = await Promise.all(Array.from({ length: 4 }, () => putStatus(h, h.a.admin.token, o.id, 'ORDERED')));
    for (const r of results) expect([200, 409], r.body).toContain(r.statusCode);
    expect(results.some((r) => r.statusCode === 200)).toBe(true);
    expect((await historyRows(h, o.id)).map((r) => r.type)).toEqual(['CREATED', 'ORDERED']);
    expect(await orderEvents(h, 'ordered', o.id)).toHaveLength(1);
  });
});
