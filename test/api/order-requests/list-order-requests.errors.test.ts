import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { expectValidationError } from './_helpers.js';

const h = useHarness();

const list = (query: string) => h.call(h.a.admin.token, { method: 'GET', url: `/order-requests${query}` });

describe('GET /order-requests invalid queries', () => {
  it.each(['SHIPPED', 'ordered', 'ORDERED,SHIPPED', 'DELIVERED'])('422 naming status for status=%s', async (value) => {
    const res = await list(`?status=${value}`);
    expectValidationError(res, 'status');
    expect(res.json().message).toMatch(/CREATED.*CANCELLED.*APPROVED.*ORDERED.*BACKORDERED.*RECEIVED/);
  });

  it('422 when one of several repeated statuses is unknown', async () => {
    expectValidationError(await list('?status=ORDERED&status=NOPE'), 'status');
  });

  it('422 when a bracketed status is unknown', async () => {
    const res = await list('?status[]=ORDERED&status[]=NOPE');
    expectValidationError(res, 'status');
    expect(res.json().message).toContain('NOPE');
  });

  it.each(['0', '-1', 'abc', '1.5', '1000000001'])('422 naming page for page=%s', async (value) => {
    expectValidationError(await list(`?page=${value}`), 'page');
  });

  it.each(['0', '101', 'abc', '-5', '2.5'])('422 naming per_page for per_page=%s', async (value) => {
    expectValidationError(await list(`?per_page=${value}`), 'per_page');
  });

  it('an empty status= is no filter (not an error)', async () => {
    const res = await list('?status=');
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(res.json())).toBe(true);
  });
});
