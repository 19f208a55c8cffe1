import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventMark, eventsSince } from '../../helpers/events.js';
import { createOrder, orderBody } from '../../helpers/orders.js';
import { useHarness } from '../../helpers/use-harness.js';

// Spend tracking codes and budgets (docs/ordering.md, docs/product.md §13): create and list codes, the spend per code
// and period, exact at the boundaries (the clock is set with vitest's fake Date, so a request is ordered at the
// last and first millisecond of a month), and over budget warning or blocking by the lab's setting.

const h = useHarness();
afterEach(() => {
  vi.useRealTimers();
});

const lab = () => h.a.legacyLab;
const admin = () => h.a.admin.token;

async function createCode(payload: Record<string, unknown>, labId = lab().id) {
  const res = await h.call(admin(), { method: 'POST', url: `/labs/${labId}/spend-tracking-codes`, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function codesOn(on: string, labId = lab().id): Promise<Record<string, any>> {
  const res = await h.call(h.a.member.token, { method: 'GET', url: `/labs/${labId}/spend-tracking-codes?on=${on}` });
  expect(res.statusCode, res.body).toBe(200);
  return Object.fromEntries(res.json().map((c: any) => [c.name, c]));
}

/** A request of `price` × `quantity` on the code, ordered at `at` (the server's clock set there). */
async function orderedAt(at: string, amount: string, quantity: number, code = 'GRANT', expected = 200) {
  const order = await createOrder(h, h.a.member.token, {
    ...orderBody(lab(), { price: { amount, currency: 'USD' }, quantity }),
    spend_tracking_code: { name: code },
  });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(at));
  const res = await h.call(h.a.member.token, { method: 'PUT', url: `/order-requests/${order.id}`, payload: { status: 'ORDERED' } });
  vi.useRealTimers();
  expect(res.statusCode, res.body).toBe(expected);
  return { order, res };
}

/** The request's history entries, by type (the fake clock dates some of them before the request was created). */
const history = async (id: string) =>
  (await h.deps.db.selectFrom('order_request_events').select(['type', 'comment']).where('order_request_id', '=', id).execute()).sort(
    (a, b) => a.type.localeCompare(b.type),
  );

describe('spend tracking codes', () => {
  it('creates a code (201) with its period, budget and the current spend; a request carries it as {name}', async () => {
    const code = await createCode({ name: ' GRANT ', budget: { amount: '100.00', currency: 'USD' } });
    expect(Object.keys(code).sort()).toEqual(
      ['budget', 'id', 'lab_id', 'name', 'over_budget', 'period', 'period_end', 'period_start', 'remaining', 'spent'].sort(),
    );
    expect(code).toMatchObject({
      lab_id: lab().id,
      name: 'GRANT',
      period: 'month',
      budget: { amount: '10000', currency: 'USD' },
      spent: [],
      remaining: { amount: '10000', currency: 'USD' },
      over_budget: false,
    });
    const order = await createOrder(h, h.a.member.token, { ...orderBody(lab()), spend_tracking_code: { name: 'GRANT' } });
    expect(order.spend_tracking_code).toEqual({ name: 'GRANT' });
    const plain = await createOrder(h, h.a.member.token, { ...orderBody(lab()), spend_tracking_code: null });
    expect(plain.spend_tracking_code).toBeNull();
  });

  it('sums exactly what was ordered in each month, to the millisecond at the boundaries', async () => {
    await orderedAt('2026-01-01T00:00:00.000Z', '0.20', 1);
    await orderedAt('2026-01-31T23:59:59.999Z', '0.10', 3);
    await orderedAt('2026-02-01T00:00:00.000Z', '99.70', 1);
    await orderedAt('2025-12-31T23:59:59.999Z', '5.00', 1);
    const jan = (await codesOn('2026-01-15')).GRANT;
    expect(jan).toMatchObject({
      period_start: '2026-01-01',
      period_end: '2026-01-31',
      spent: [{ amount: '50', currency: 'USD' }],
      remaining: { amount: '9950', currency: 'USD' },
      over_budget: false,
    });
    expect((await codesOn('2026-02-28')).GRANT).toMatchObject({
      period_start: '2026-02-01',
      period_end: '2026-02-28',
      spent: [{ amount: '9970', currency: 'USD' }],
      remaining: { amount: '30', currency: 'USD' },
    });
    expect((await codesOn('2025-12-01')).GRANT.spent).toEqual([{ amount: '500', currency: 'USD' }]);
  });

  it('spending the budget exactly is within it; one cent more warns (by default) in the history, and the request goes ahead', async () => {
    const exact = await orderedAt('2026-02-28T23:59:59.999Z', '0.10', 3);
    expect((await history(exact.order.id)).map((e) => e.type)).toEqual(['CREATED', 'ORDERED']);
    expect((await codesOn('2026-02-01')).GRANT).toMatchObject({ spent: [{ amount: '10000', currency: 'USD' }], over_budget: false });

    const over = await orderedAt('2026-02-10T12:00:00.000Z', '0.01', 1);
    expect(over.res.json().status).toBe('ORDERED');
    const entries = await history(over.order.id);
    expect(entries.map((e) => e.type)).toEqual(['CREATED', 'ORDERED', 'OVER_BUDGET']);
    expect(entries[2]!.comment).toBe('Spend tracking code "GRANT" would spend 100.01 USD of its 100.00 budget for 2026-02-01..2026-02-28');
    expect((await codesOn('2026-02-01')).GRANT).toMatchObject({
      spent: [{ amount: '10001', currency: 'USD' }],
      remaining: { amount: '0', currency: 'USD' },
      over_budget: true,
    });
  });

  it('blocks when the lab says so: 409 over_budget, the request stays CREATED and nothing is emitted; the next period is fresh', async () => {
    const put = await h.call(admin(), { method: 'PUT', url: `/labs/${lab().id}/spend-settings`, payload: { over_budget: 'block' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ over_budget: 'block' });
    expect((await h.call(h.a.member.token, { method: 'GET', url: `/labs/${lab().id}/spend-settings` })).json()).toEqual({
      over_budget: 'block',
    });

    const before = await eventMark(h);
    const blocked = await orderedAt('2026-01-20T00:00:00.000Z', '99.51', 1, 'GRANT', 409);
    expect(blocked.res.json()).toMatchObject({ code: 'over_budget' });
    expect((await eventsSince(h, before)).map((e) => e.row.type)).toEqual(['com.labstock.order-request.created']);
    expect((await history(blocked.order.id)).map((e) => e.type)).toEqual(['CREATED']);
    expect((await h.call(h.a.member.token, { method: 'GET', url: `/order-requests/${blocked.order.id}` })).json().status).toBe('CREATED');
    expect((await codesOn('2026-01-01')).GRANT.spent).toEqual([{ amount: '50', currency: 'USD' }]);

    // Exactly the rest of January's budget is fine.
    await orderedAt('2026-01-20T00:00:00.000Z', '99.50', 1);
    expect((await codesOn('2026-01-01')).GRANT).toMatchObject({ remaining: { amount: '0', currency: 'USD' }, over_budget: false });
    await orderedAt('2026-03-01T00:00:00.000Z', '99.51', 1);
  });

  it('checks a code given to a request that is already ordered (PATCH), and does not count cancelled requests', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-05T00:00:00.000Z'));
    const order = await createOrder(h, h.a.member.token, orderBody(lab(), { price: { amount: '0.01', currency: 'USD' }, quantity: 1 }));
    await h.call(h.a.member.token, { method: 'PUT', url: `/order-requests/${order.id}`, payload: { status: 'ORDERED' } });
    vi.useRealTimers();
    const res = await h.call(h.a.member.token, {
      method: 'PATCH',
      url: `/order-requests/${order.id}`,
      payload: { spend_tracking_code: { name: 'GRANT' } },
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().code).toBe('over_budget');

    const rest = await orderedAt('2026-03-02T00:00:00.000Z', '0.49', 1);
    expect((await codesOn('2026-03-31')).GRANT.spent).toEqual([{ amount: '10000', currency: 'USD' }]);
    const cancel = await h.call(h.a.member.token, {
      method: 'PUT',
      url: `/order-requests/${rest.order.id}`,
      payload: { status: 'CANCELLED' },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect((await codesOn('2026-03-31')).GRANT.spent).toEqual([{ amount: '9951', currency: 'USD' }]);
  });

  it('reports by quarter and by year, in UTC calendar periods; codes without a budget report spend per currency', async () => {
    const q = await createCode({ name: 'Q-CODE', period: 'quarter', budget: { amount: '1000', currency: 'JPY' } });
    expect(q.budget).toEqual({ amount: '1000', currency: 'JPY' });
    await createCode({ name: 'OPEN', period: 'year' });
    const codes = await codesOn('2026-05-31');
    expect(codes['Q-CODE']).toMatchObject({ period_start: '2026-04-01', period_end: '2026-06-30', spent: [], over_budget: false });
    expect(codes.OPEN).toMatchObject({ period_start: '2026-01-01', period_end: '2026-12-31', budget: null, remaining: null });
    await orderedAt('2026-07-01T00:00:00.000Z', '1.50', 2, 'OPEN');
    const eur = await createOrder(h, h.a.member.token, {
      ...orderBody(lab(), { price: { amount: '2.25', currency: 'EUR' }, quantity: 2 }),
      spend_tracking_code: { name: 'OPEN' },
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-31T23:59:59.999Z'));
    await h.call(h.a.member.token, { method: 'PUT', url: `/order-requests/${eur.id}`, payload: { status: 'ORDERED' } });
    vi.useRealTimers();
    expect((await codesOn('2026-01-01')).OPEN.spent).toEqual([
      { amount: '450', currency: 'EUR' },
      { amount: '300', currency: 'USD' },
    ]);
    expect((await codesOn('2027-01-01')).OPEN.spent).toEqual([]);
  });

  it('PUT /spend-tracking-codes/{id} changes the period and the budget (null removes it); the name and the spend stay', async () => {
    const created = await createCode({ name: 'EDITED', budget: { amount: '10.00', currency: 'USD' } });
    await orderedAt('2026-04-10T00:00:00.000Z', '4.00', 1, 'EDITED');
    const put = (payload: Record<string, unknown>) =>
      h.call(admin(), { method: 'PUT', url: `/spend-tracking-codes/${created.id}`, payload });
    const yearly = await put({ period: 'year', budget: { amount: '3.50', currency: 'USD' } });
    expect(yearly.statusCode, yearly.body).toBe(200);
    expect(yearly.json()).toMatchObject({ id: created.id, name: 'EDITED', period: 'year', budget: { amount: '350', currency: 'USD' } });
    expect((await codesOn('2026-12-31')).EDITED).toMatchObject({
      period_start: '2026-01-01',
      spent: [{ amount: '400', currency: 'USD' }],
      remaining: { amount: '0', currency: 'USD' },
      over_budget: true,
    });
    const open = await put({ budget: null });
    expect(open.json()).toMatchObject({ period: 'year', budget: null, remaining: null, over_budget: false });
    expect((await put({})).json()).toMatchObject({ period: 'year', budget: null });
  });

  it('lists the codes by name; a lab without codes lists none and warns by default', async () => {
    const res = await h.call(h.a.member.token, { method: 'GET', url: `/labs/${lab().id}/spend-tracking-codes` });
    expect(res.json().map((c: any) => c.name)).toEqual(['EDITED', 'GRANT', 'OPEN', 'Q-CODE']);
    const empty = await h.call(h.a.member.token, { method: 'GET', url: `/labs/${h.a.migratedLab.id}/spend-tracking-codes` });
    expect(empty.json()).toEqual([]);
    expect((await h.call(h.a.member.token, { method: 'GET', url: `/labs/${h.a.migratedLab.id}/spend-settings` })).json()).toEqual({
      over_budget: 'warn',
    });
  });
});
