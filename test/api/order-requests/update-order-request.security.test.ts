import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { counts, expectNotFound, historyRows, orderIn, orderRow, putStatus, type Status } from './_helpers.js';

const h = useHarness();

/** A refused PUT must leave the request, its history, the outbox and inventory untouched. */
async function expectRefused(token: string | null, id: string, status: Status, code: number): Promise<void> {
  const before = await counts(h);
  const row = await orderRow(h, id);
  const history = await historyRows(h, id);
  const res = await putStatus(h, token, id, status);
  expect(res.statusCode, res.body).toBe(code);
  if (code === 404) expectNotFound(res);
  expect(await counts(h)).toEqual(before);
  expect(await orderRow(h, id)).toEqual(row);
  expect(await historyRows(h, id)).toEqual(history);
}

describe('PUT /order-requests/{id} across tenants', () => {
  it("404 for org B's request with every org A token, for every target status", async () => {
    const b = await orderIn(h, h.b.admin.token, h.b.legacyLab, 'ORDERED');
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const to of ['RECEIVED', 'CANCELLED', 'BACKORDERED', 'ORDERED'] as Status[]) await expectRefused(token, b.id, to, 404);
    }
    // Legacy item of B did not receive anything.
    const item = await h.call(h.b.admin.token, { method: 'GET', url: `/inventory-items/${h.b.legacyLab.itemId}` });
    expect(item.json().quantity).toBe('3');
    const got = await h.call(h.b.admin.token, { method: 'GET', url: `/order-requests/${b.id}` });
    expect(got.json().status).toBe('ORDERED');
  });

  it('the refusal is a 404 even when the transition would be invalid (no 409 leaks existence)', async () => {
    const b = await orderIn(h, h.b.admin.token, h.b.migratedLab, 'CREATED');
    await expectRefused(h.a.admin.token, b.id, 'RECEIVED', 404);
  });

  it("org B cannot move org A's requests", async () => {
    const a = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'CREATED');
    await expectRefused(h.b.admin.token, a.id, 'APPROVED', 404);
  });
});

describe('PUT /order-requests/{id} within an organization', () => {
  it('404 for a member on a request of a lab they do not belong to', async () => {
    const o = await orderIn(h, h.a.admin.token, h.a.otherLab, 'CREATED');
    await expectRefused(h.a.member.token, o.id, 'APPROVED', 404);
    // The admin can.
    const ok = await putStatus(h, h.a.admin.token, o.id, 'APPROVED');
    expect(ok.statusCode).toBe(200);
  });

  it('404 for an outsider on any request of the org', async () => {
    const o = await orderIn(h, h.a.member.token, h.a.legacyLab, 'CREATED');
    await expectRefused(h.a.outsider.token, o.id, 'CANCELLED', 404);
  });
});

describe('PUT /order-requests/{id} authentication', () => {
  it('401 without a token or with an unknown one, nothing changes', async () => {
    const o = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'ORDERED');
    await expectRefused(null, o.id, 'RECEIVED', 401);
    await expectRefused('bogus-token', o.id, 'RECEIVED', 401);
    const res = await putStatus(h, null, o.id, 'RECEIVED');
    expect(res.json().code).toBe('unauthorized');
  });
});
