import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { expectValidationError } from './_helpers.js';

const h = useHarness();

const list = (query: string) => h.call(h.a.admin.token, { method: 'GET', url: `/order-requests${query}` });

describe('GET /order-requests: invalid search, requester and sort', () => {
  it.each(['name', 'requested', 'REQUESTED_AT', '--requested_at', 'updated_at'])('422 naming sort for sort=%s', async (value) => {
    expectValidationError(await list(`?sort=${value}`), 'sort');
  });

  it('422 naming q when it is longer than 200 characters', async () => {
    expectValidationError(await list(`?q=${'a'.repeat(201)}`), 'q');
    expect((await list(`?q=${'a'.repeat(200)}`)).statusCode).toBe(200);
  });

  it('422 naming requested_by when it is longer than 100 characters', async () => {
    expectValidationError(await list(`?requested_by=${'a'.repeat(101)}`), 'requested_by');
  });

  it('a requested_by that is nobody (not a UUID, or unknown) is an empty list, not an error', async () => {
    for (const value of ['nobody', 'ME', '00000000-0000-7000-8000-000000000000']) {
      const res = await list(`?requested_by=${value}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
      expect(res.headers['x-total-count']).toBe('0');
    }
  });
});
