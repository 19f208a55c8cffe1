import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { counts, createOrder, expectNotFound, historyRows, orderBody, orderRow } from './_helpers.js';

// PATCH /order-requests/{id} across tenants and labs: another organization's request, a lab the member does not
// belong to, and no token are refused without a trace (docs/product.md §2: 404, never data).

const h = useHarness({}, async (h) => {
  // A code of B's lab with the same name as one of A's, so only tenancy can refuse it.
  for (const [token, lab] of [
    [h.a.admin.token, h.a.legacyLab.id],
    [h.b.admin.token, h.b.legacyLab.id],
  ] as const) {
    const res = await h.call(token, { method: 'POST', url: `/labs/${lab}/spend-tracking-codes`, payload: { name: 'SHARED' } });
    expect(res.statusCode, res.body).toBe(201);
  }
});

async function expectRefused(token: string | null, id: string, status: number): Promise<void> {
  const before = await counts(h);
  const row = await orderRow(h, id);
  const history = await historyRows(h, id);
  const res = await h.call(token, {
    method: 'PATCH',
    url: `/order-requests/${id}`,
    payload: { invoice_number: 'HACK', spend_tracking_code: { name: 'SHARED' } },
  });
  expect(res.statusCode, res.body).toBe(status);
  if (status === 404) {
    expectNotFound(res);
    expect(res.body).not.toContain(h.b.legacyLab.id);
  }
  expect(await counts(h)).toEqual(before);
  expect(await orderRow(h, id)).toEqual(row);
  expect(await historyRows(h, id)).toEqual(history);
}

describe('PATCH /order-requests/{id} security', () => {
  it("404 for organization B's request with every organization A token; nothing changes", async () => {
    const b = await createOrder(h, h.b.admin.token, orderBody(h.b.legacyLab));
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) await expectRefused(token, b.id, 404);
  });

  it('404 for a request of a lab the member does not belong to', async () => {
    const other = await createOrder(h, h.a.admin.token, orderBody(h.a.otherLab));
    await expectRefused(h.a.member.token, other.id, 404);
    await expectRefused(h.a.outsider.token, other.id, 404);
  });

  it('401 without a token or with a revoked-looking one', async () => {
    const mine = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab));
    await expectRefused(null, mine.id, 401);
    await expectRefused('lst_not-a-real-token', mine.id, 401);
  });

  it("a spend tracking code is looked up in the request's own lab only: B's code of the same name does not count", async () => {
    const mine = await createOrder(h, h.a.member.token, orderBody(h.a.migratedLab));
    const res = await h.call(h.a.member.token, {
      method: 'PATCH',
      url: `/order-requests/${mine.id}`,
      payload: { spend_tracking_code: { name: 'SHARED' } },
    });
    expect(res.statusCode, res.body).toBe(422);
  });
});
