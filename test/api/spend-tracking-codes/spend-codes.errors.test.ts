import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { orderBody } from '../../helpers/orders.js';
import { MISSING_ID } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

// Refusals of POST/GET /labs/{id}/spend-tracking-codes, GET/PUT /labs/{id}/spend-settings and of a spend tracking
// code on POST /order-requests: the standard error body, and nothing written.

const h = useHarness({}, async (h) => {
  const res = await h.call(h.a.admin.token, {
    method: 'POST',
    url: `/labs/${h.a.legacyLab.id}/spend-tracking-codes`,
    payload: { name: 'TAKEN', budget: { amount: '50', currency: 'CHF' } },
  });
  expect(res.statusCode, res.body).toBe(201);
});

const rows = async () => ({
  codes: (await h.deps.db.selectFrom('spend_tracking_codes').selectAll().execute()).length,
  settings: (await h.deps.db.selectFrom('lab_spend_settings').selectAll().execute()).length,
  orders: (await h.deps.db.selectFrom('order_requests').selectAll().execute()).length,
});

async function refused(method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>, token = h.a.admin.token) {
  const before = await rows();
  const res = await h.call(token, { method, url, ...(payload ? { payload } : {}) });
  expect(await rows()).toEqual(before);
  return res;
}

const codesUrl = (lab = h.a.legacyLab.id) => `/labs/${lab}/spend-tracking-codes`;

describe('spend tracking codes: errors', () => {
  it('create: 422 for an empty or missing name, an unknown period, a bad budget, an unknown field', async () => {
    expectValidation(await refused('POST', codesUrl(), { name: '   ' }), 'name');
    expectValidation(await refused('POST', codesUrl(), {}), 'name');
    expectValidation(await refused('POST', codesUrl(), { name: 'A', period: 'week' }), 'period');
    expectValidation(await refused('POST', codesUrl(), { name: 'A', budget: { amount: '1.234', currency: 'USD' } }), 'budget.amount');
    expectValidation(await refused('POST', codesUrl(), { name: 'A', budget: { amount: '-5', currency: 'USD' } }), 'budget.amount');
    expectValidation(await refused('POST', codesUrl(), { name: 'A', budget: { amount: '5', currency: 'XYZ' } }), 'budget.currency');
    expectValidation(await refused('POST', codesUrl(), { name: 'A', colour: 'red' }), 'colour');
  });

  it('create: 409 for a name the lab already has (the same name in another lab is fine)', async () => {
    expectError(await refused('POST', codesUrl(), { name: 'TAKEN' }), 409, 'conflict');
    const other = await h.call(h.a.admin.token, { method: 'POST', url: codesUrl(h.a.migratedLab.id), payload: { name: 'TAKEN' } });
    expect(other.statusCode, other.body).toBe(201);
  });

  it('404 for a lab that does not exist, 422 for one that is not a uuid', async () => {
    for (const [method, url] of [
      ['POST', codesUrl(MISSING_ID)],
      ['GET', codesUrl(MISSING_ID)],
      ['GET', `/labs/${MISSING_ID}/spend-settings`],
      ['PUT', `/labs/${MISSING_ID}/spend-settings`],
    ] as const) {
      const payload = method === 'POST' ? { name: 'X' } : method === 'PUT' ? { over_budget: 'block' } : undefined;
      expectError(await refused(method, url, payload), 404, 'not_found');
    }
    expectValidation(await refused('GET', '/labs/nope/spend-tracking-codes'), 'id');
  });

  it('update: 404 for a code that does not exist, 422 for a bad period, budget or field', async () => {
    const code = (await h.call(h.a.admin.token, { method: 'GET', url: codesUrl() })).json().find((c: any) => c.name === 'TAKEN');
    expectError(await refused('PUT', `/spend-tracking-codes/${MISSING_ID}`, { period: 'year' }), 404, 'not_found');
    expectValidation(await refused('PUT', '/spend-tracking-codes/nope', { period: 'year' }), 'id');
    expectValidation(await refused('PUT', `/spend-tracking-codes/${code.id}`, { period: 'week' }), 'period');
    expectValidation(
      await refused('PUT', `/spend-tracking-codes/${code.id}`, { budget: { amount: '0.001', currency: 'CHF' } }),
      'budget.amount',
    );
    expectValidation(await refused('PUT', `/spend-tracking-codes/${code.id}`, { name: 'RENAMED' }), 'name');
  });

  it('list: 422 for an `on` that is not a calendar date', async () => {
    for (const on of ['2026-02-30', 'yesterday']) {
      const res = await refused('GET', `${codesUrl()}?on=${on}`);
      expect(res.statusCode, res.body).toBe(422);
    }
  });

  it('settings: 422 for an unknown value or field', async () => {
    expectValidation(await refused('PUT', `/labs/${h.a.legacyLab.id}/spend-settings`, { over_budget: 'ignore' }), 'over_budget');
    expectValidation(await refused('PUT', `/labs/${h.a.legacyLab.id}/spend-settings`, { over_budget: 'warn', x: 1 }), 'x');
  });

  it('POST /order-requests: 422 for a code the lab does not have, or whose budget is in another currency', async () => {
    const body = (code: string) => ({ ...orderBody(h.a.legacyLab), spend_tracking_code: { name: code } });
    expectValidation(await refused('POST', '/order-requests', body('NOPE'), h.a.member.token), 'spend_tracking_code.name');
    const wrong = expectValidation(await refused('POST', '/order-requests', body('TAKEN'), h.a.member.token), 'spend_tracking_code.name');
    expect(wrong.message).toContain('CHF');
  });
});
