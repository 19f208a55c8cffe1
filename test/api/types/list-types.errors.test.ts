import { describe, expect, it } from 'vitest';
import { expectValidationError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const list = (query: string) => h.call(h.a.admin.token, { method: 'GET', url: `/types${query}` });

describe('GET /types invalid queries', () => {
  it.each(['not-a-uuid', '123', "x' OR '1'='1"])('422 naming lab_id for lab_id=%s', async (value) => {
    expectValidationError(await list(`?lab_id=${encodeURIComponent(value)}`), 'lab_id');
  });

  it.each(['0', '-1', 'abc'])('422 naming page for page=%s', async (value) => {
    expectValidationError(await list(`?page=${value}`), 'page');
  });

  it.each(['0', '101', 'x'])('422 naming per_page for per_page=%s', async (value) => {
    expectValidationError(await list(`?per_page=${value}`), 'per_page');
  });

  it('422 for a name longer than 200 characters', async () => {
    expectValidationError(await list(`?name=${'a'.repeat(201)}`), 'name');
  });

  it('a name that looks like SQL is just a name that matches nothing', async () => {
    const res = await list(`?name=${encodeURIComponent("Reagent' OR '1'='1")}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });
});
