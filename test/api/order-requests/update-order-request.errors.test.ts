import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import {
  counts,
  expectNotFound,
  expectValidationError,
  historyRows,
  MISSING_ID,
  orderIn,
  orderRow,
  putStatus,
  STATUSES,
  type Status,
  TRANSITIONS,
} from './_helpers.js';

const h = useHarness();

const REFUSED: [Status, Status][] = STATUSES.flatMap((from) =>
  STATUSES.filter((to) => to !== from && !TRANSITIONS[from].includes(to)).map((to) => [from, to] as [Status, Status]),
);

/** Runs a refused PUT and checks that the request, its history and the outbox are untouched. */
async function expectUnchanged(id: string, run: () => Promise<void>): Promise<void> {
  const before = await counts(h);
  const row = await orderRow(h, id);
  const history = await historyRows(h, id);
  await run();
  expect(await counts(h)).toEqual(before);
  expect(await orderRow(h, id)).toEqual(row);
  expect(await historyRows(h, id)).toEqual(history);
}

describe('PUT /order-requests/{id}: refused transitions', () => {
  it('there are 18 refused (from, to) pairs', () => {
    expect(REFUSED).toHaveLength(18);
  });

  it.each(REFUSED)('%s -> %s: 409 invalid_transition naming the allowed targets', async (from, to) => {
    const o = await orderIn(h, h.a.admin.token, h.a.legacyLab, from);
    await expectUnchanged(o.id, async () => {
      const res = await putStatus(h, h.a.admin.token, o.id, to);
      expect(res.statusCode, res.body).toBe(409);
      const body = res.json();
      expect(body.code).toBe('invalid_transition');
      expect(body.allowed).toEqual(TRANSITIONS[from]);
      expect(typeof body.request_id).toBe('string');
      expect(body.message).toContain(from);
      expect(body.message).toContain(to);
      for (const target of TRANSITIONS[from]) expect(body.message).toContain(target);
    });
    const got = await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${o.id}` });
    expect(got.json()).toEqual(o);
  });

  it('RECEIVED -> CANCELLED says RECEIVED is final', async () => {
    const o = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'RECEIVED');
    const res = await putStatus(h, h.a.admin.token, o.id, 'CANCELLED');
    expect(res.statusCode).toBe(409);
    expect(res.json().allowed).toEqual([]);
    expect(res.json().message).toMatch(/final/i);
  });
});

describe('PUT /order-requests/{id}: validation', () => {
  let o: any;
  beforeAll(async () => {
    o = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'CREATED');
  });

  it.each(['SHIPPED', 'ordered', 'Ordered', '', 'CREATED,ORDERED', 'DELIVERED'])(
    '422 for the unknown status value "%s"',
    async (status) => {
      await expectUnchanged(o.id, async () => {
        expectValidationError(await putStatus(h, h.a.admin.token, o.id, status), 'status');
      });
    },
  );

  it.each([[1], [null], [true], [['ORDERED']], [{ value: 'ORDERED' }]])('422 for a status that is not a string: %j', async (status) => {
    await expectUnchanged(o.id, async () => {
      const res = await h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${o.id}`, payload: { status } });
      expectValidationError(res, 'status');
    });
  });

  it('422 naming an unknown body field (even next to a valid status)', async () => {
    await expectUnchanged(o.id, async () => {
      const res = await h.call(h.a.admin.token, {
        method: 'PUT',
        url: `/order-requests/${o.id}`,
        payload: { status: 'APPROVED', quantity: 5 },
      });
      expectValidationError(res, 'quantity');
    });
  });

  it('400 for malformed JSON', async () => {
    await expectUnchanged(o.id, async () => {
      const res = await h.call(h.a.admin.token, {
        method: 'PUT',
        url: `/order-requests/${o.id}`,
        headers: { 'content-type': 'application/json' },
        payload: '{"status":',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('invalid_json');
    });
  });

  it('404 for an unknown id', async () => {
    const before = await counts(h);
    expectNotFound(await putStatus(h, h.a.admin.token, MISSING_ID, 'APPROVED'));
    expect(await counts(h)).toEqual(before);
  });

  it('422 for a non-uuid id', async () => {
    const before = await counts(h);
    expectValidationError(await putStatus(h, h.a.admin.token, 'not-a-uuid', 'APPROVED'), 'id');
    expect(await counts(h)).toEqual(before);
  });

  it('PATCH is not an update method (all updates are PUT)', async () => {
    await expectUnchanged(o.id, async () => {
      const res = await h.call(h.a.admin.token, { method: 'PATCH', url: `/order-requests/${o.id}`, payload: { status: 'APPROVED' } });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    });
  });
});
