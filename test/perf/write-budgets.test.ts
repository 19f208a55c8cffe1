import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountedApp, startCountedApp } from '../helpers/db-counter.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { expectDocumentsFresh } from '../helpers/stored-documents.js';

// Statements of the write integrations send most, counted like the list budgets (query-budgets.test.ts) on a
// second app over the same data (issue 15: PUT of an instance's quantity in at most 8, BEGIN and COMMIT included;
// 9 since issue 26: one more keeps the control-area totals true, src/hazards/holdings-repository.ts).
// Authentication is left out: it is the same for every request and counted on its own (the auth cache's tests).
// Timings are never asserted here; bench/ measures them.

const PUT_INSTANCE_BUDGET = 9;
/**
 * On PostgreSQL (docs/decisions/0030-precompiled-writes.md): BEGIN, the read, the item's version, then the holding,
 * the instance, the history line, the event and its deliveries as one statement, COMMIT.
 */
const putInstanceBudget = () => (h.database.handle.kind === 'postgres' ? 5 : PUT_INSTANCE_BUDGET);
/**
 * POST /order-requests (docs/decisions/0030-precompiled-writes.md): BEGIN, one read, the request, its history row,
 * its event and the event's deliveries, COMMIT; on PostgreSQL the four writes are one statement.
 */
const postOrderBudget = () => (h.database.handle.kind === 'postgres' ? 4 : 7);
/**
 * PUT /order-requests/{id} to ORDERED: BEGIN, one read, the history row and the status, the newest history with its
 * users (the event's `events`), the event and its deliveries, COMMIT (PostgreSQL: the history row and the status in
 * one statement, the event and its deliveries in another; it reads the lab's approval rule again once the row is
 * locked: src/order-requests/service.ts TransitionKnown). A move that emits no event stops after the status.
 */
const orderedBudget = () => (h.database.handle.kind === 'postgres' ? 7 : 8);
const cancelledBudget = () => (h.database.handle.kind === 'postgres' ? 4 : 5);

let h: Harness;
let counted: CountedApp;
let countedApp: FastifyInstance;
let statements: string[] = [];

beforeAll(async () => {
  h = await startHarness();
  counted = await startCountedApp(h, (sql) => statements.push(sql));
  countedApp = counted.app;
});

afterAll(async () => {
  await counted?.close();
  await h?.close();
});

/** The request's statements from its transaction's BEGIN to its COMMIT (authentication runs before it). */
async function put(url: string, payload: object): Promise<string[]> {
  return send('PUT', url, payload, 200);
}

async function send(method: 'PUT' | 'POST', url: string, payload: object, status: number): Promise<string[]> {
  statements = [];
  const res = await countedApp.inject({ method, url, headers: { 'access-token': h.a.admin.token }, payload });
  expect(res.statusCode, res.body).toBe(status);
  const begin = statements.findIndex((s) => /^begin/i.test(s));
  const commit = statements.findIndex((s) => /^commit/i.test(s));
  expect(begin, statements.join('\n')).toBeGreaterThanOrEqual(0);
  expect(commit, statements.join('\n')).toBeGreaterThan(begin);
  return statements.slice(begin, commit + 1);
}

describe('PUT /inventory-items/{itemId}/instances/{itemInstanceId}', () => {
  it(`runs at most ${PUT_INSTANCE_BUDGET} statements (5 on PostgreSQL), its event's deliveries included, and leaves the document fresh`, async () => {
    // Two webhooks that take the event: its deliveries are part of the write.
    for (const i of [1, 2]) {
      const res = await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/webhooks',
        payload: { organization_id: h.a.orgId, url: `https://hooks.example.org/${i}` },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const itemId = h.a.migratedLab.itemId;
    const [instanceId] = h.a.migratedLab.instanceIds;
    const before = await h.deps.db.selectFrom('webhook_deliveries').select('id').execute();
    const ran = await put(`/inventory-items/${itemId}/instances/${instanceId}`, { quantity: '12.5' });
    expect(ran.length, ran.join('\n')).toBeLessThanOrEqual(putInstanceBudget());
    // The change, its history, its event and both deliveries are all there.
    const after = await h.deps.db.selectFrom('webhook_deliveries').select('id').execute();
    expect(after.length - before.length).toBe(2);
    const item = (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${itemId}` })).json();
    expect(item.instances.find((i: { id: string }) => i.id === instanceId).quantity).toBe('12.5');
    const history = (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${itemId}/history` })).json();
    expect(history.at(-1)).toMatchObject({ field: 'instance.quantity', new_value: '12.5' });
    await expectDocumentsFresh(h);
  });

  it('without a webhook, one statement fewer (no deliveries to write)', async () => {
    await h.deps.db.updateTable('webhooks').set({ is_enabled: 0 }).execute();
    const [, instanceId] = h.a.migratedLab.instanceIds;
    const ran = await put(`/inventory-items/${h.a.migratedLab.itemId}/instances/${instanceId}`, { quantity: '3' });
    expect(ran.length, ran.join('\n')).toBeLessThanOrEqual(putInstanceBudget() - (h.database.handle.kind === 'postgres' ? 0 : 1));
    await expectDocumentsFresh(h);
  });
});

describe('POST /order-requests', () => {
  const body = () => ({
    lab_id: h.a.migratedLab.id,
    type_id: h.a.migratedLab.typeId,
    name: 'Anti-GFP antibody',
    vendor_name: 'Abcam',
    catalog_number: 'ab290',
    price: { amount: '389.00', currency: 'EUR' },
    quantity: 2,
    notes: 'For the imaging run',
  });

  it('runs the budget, its event and both deliveries included, and answers what GET and the event say', async () => {
    await h.deps.db.updateTable('webhooks').set({ is_enabled: 1 }).execute();
    const before = await h.deps.db.selectFrom('webhook_deliveries').select('id').execute();
    statements = [];
    const res = await countedApp.inject({
      method: 'POST',
      url: '/order-requests',
      headers: { 'access-token': h.a.admin.token },
      payload: body(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const begin = statements.findIndex((s) => /^begin/i.test(s));
    const ran = statements.slice(begin, statements.findIndex((s) => /^commit/i.test(s)) + 1);
    expect(ran.length, ran.join('\n')).toBeLessThanOrEqual(postOrderBudget());
    const created = res.json();
    const after = await h.deps.db.selectFrom('webhook_deliveries').select(['id', 'event_id']).execute();
    const mine = after.filter((d) => !before.some((b) => b.id === d.id));
    expect(mine).toHaveLength(2);
    const event = await h.deps.db.selectFrom('events').select('payload').where('id', '=', mine[0]!.event_id).executeTakeFirstOrThrow();
    // The event's resource is the answer, and GET answers the same.
    expect(JSON.parse(event.payload).data.order_request).toEqual(created);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${created.id}` })).json()).toEqual(created);
    const history = (await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${created.id}/history` })).json();
    expect(history.map((e: { type: string }) => e.type)).toEqual(['CREATED']);
  });

  it('without a webhook, one statement fewer on SQLite (no deliveries to write)', async () => {
    await h.deps.db.updateTable('webhooks').set({ is_enabled: 0 }).execute();
    const ran = await send('POST', '/order-requests', body(), 201);
    expect(ran.length, ran.join('\n')).toBeLessThanOrEqual(postOrderBudget() - (h.database.handle.kind === 'postgres' ? 0 : 1));
  });
});

describe('PUT /order-requests/{id}', () => {
  async function created(): Promise<string> {
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: {
        lab_id: h.a.migratedLab.id,
        type_id: h.a.migratedLab.typeId,
        name: 'Pipette tips',
        vendor_name: 'Eppendorf',
        catalog_number: '0030000870',
        price: { amount: '45.00', currency: 'EUR' },
        quantity: 3,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id;
  }

  it('to ORDERED runs the budget, its event and deliveries included; the event holds the new history', async () => {
    await h.deps.db.updateTable('webhooks').set({ is_enabled: 1 }).execute();
    const id = await created();
    const before = await h.deps.db.selectFrom('webhook_deliveries').select('id').execute();
    const ran = await put(`/order-requests/${id}`, { status: 'ORDERED' });
    expect(ran.length, ran.join('\n')).toBeLessThanOrEqual(orderedBudget());
    const mine = (await h.deps.db.selectFrom('webhook_deliveries').select(['id', 'event_id']).execute()).filter(
      (d) => !before.some((b) => b.id === d.id),
    );
    expect(mine).toHaveLength(2);
    const event = await h.deps.db.selectFrom('events').select('payload').where('id', '=', mine[0]!.event_id).executeTakeFirstOrThrow();
    const payload = JSON.parse(event.payload);
    expect(payload.type).toBe('com.labstock.order-request.ordered');
    expect(payload.data.order_request.events.map((e: { type: string }) => e.type)).toEqual(['CREATED', 'ORDERED']);
    const { events: _events, updated_by: _by, ...order } = payload.data.order_request;
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${id}` })).json()).toEqual(order);
  });

  it('to CANCELLED (no event) stops after the history row and the status', async () => {
    const id = await created();
    const ran = await put(`/order-requests/${id}`, { status: 'CANCELLED' });
    expect(ran.length, ran.join('\n')).toBeLessThanOrEqual(cancelledBudget());
    const order = (await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${id}` })).json();
    expect(order.status).toBe('CANCELLED');
  });
});
