import { describe, expect, it } from 'vitest';
import { createOrder, orderBody } from '../../helpers/orders.js';
import { useHarness } from '../../helpers/use-harness.js';

// A blocking budget holds under concurrency (src/order-requests/spend-codes-repository.ts findCodeForBudget): requests
// ordered at the same moment on one code are checked one after the other, so together they never overspend it.

const h = useHarness({}, async (h) => {
  const code = await h.call(h.a.admin.token, {
    method: 'POST',
    url: `/labs/${h.a.legacyLab.id}/spend-tracking-codes`,
    payload: { name: 'RACE', budget: { amount: '100.00', currency: 'USD' } },
  });
  expect(code.statusCode, code.body).toBe(201);
  const settings = await h.call(h.a.admin.token, {
    method: 'PUT',
    url: `/labs/${h.a.legacyLab.id}/spend-settings`,
    payload: { over_budget: 'block' },
  });
  expect(settings.statusCode, settings.body).toBe(200);
});

describe('a blocking budget under concurrent orders', () => {
  it('lets exactly one of two 60.00 requests on a 100.00 budget through', async () => {
    const orders = await Promise.all(
      [1, 2].map(() =>
        createOrder(h, h.a.member.token, {
          ...orderBody(h.a.legacyLab, { price: { amount: '60.00', currency: 'USD' }, quantity: 1 }),
          spend_tracking_code: { name: 'RACE' },
        }),
      ),
    );
    const results = await Promise.all(
      orders.map((o) => h.call(h.a.member.token, { method: 'PUT', url: `/order-requests/${o.id}`, payload: { status: 'ORDERED' } })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().code).toBe('over_budget');
    const list = await h.call(h.a.member.token, { method: 'GET', url: `/labs/${h.a.legacyLab.id}/spend-tracking-codes` });
    expect(list.json()[0]).toMatchObject({ spent: [{ amount: '6000', currency: 'USD' }], over_budget: false });
  });
});
