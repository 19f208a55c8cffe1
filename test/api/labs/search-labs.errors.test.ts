import { describe, expect, it } from 'vitest';
import { expectValidationError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const list = (query: string) => h.call(h.a.admin.token, { method: 'GET', url: `/labs${query}` });

describe('GET /labs?q= (errors)', () => {
  it('422 naming q for a q longer than 200 characters; 200 is accepted', async () => {
    expectValidationError(await list(`?q=${'a'.repeat(201)}`), 'q');
    const res = await list(`?q=${'a'.repeat(200)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('a q that looks like SQL or a LIKE escape is just text that matches nothing', async () => {
    for (const q of ["lab' OR '1'='1", '\\', 'lab\\%']) {
      const res = await list(`?q=${encodeURIComponent(q)}`);
      expect(res.statusCode, q).toBe(200);
      expect(res.json(), q).toEqual([]);
    }
  });

  it('the other parameters are still checked with q', async () => {
    expectValidationError(await list('?q=lab&per_page=101'), 'per_page');
    expectValidationError(await list('?q=lab&organization_id=nope'), 'organization_id');
  });
});
