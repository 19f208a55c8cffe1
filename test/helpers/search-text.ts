// The errors tests of the lists that take `q`, text inside a name (src/shared/contains-text.ts): the same two
// cases for every such list, one `it` each, so each list's file names only what differs (its URL, its texts).

import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { expectValidationError } from './errors.js';

/**
 * `q` over 200 characters is 422 naming q (200 is accepted and matches nothing); each of `injections`, text that
 * looks like SQL or a LIKE escape, is 200 with no match (and, with `countsToo`, X-Total-Count 0).
 */
export function itTreatsQAsText(
  list: (query: string) => Promise<LightMyRequestResponse>,
  injections: readonly string[],
  countsToo = false,
) {
  it('422 naming q for a q longer than 200 characters; 200 is accepted', async () => {
    expectValidationError(await list(`?q=${'a'.repeat(201)}`), 'q');
    const res = await list(`?q=${'a'.repeat(200)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('a q that looks like SQL or a LIKE escape is just text that matches nothing', async () => {
    for (const q of injections) {
      const res = await list(`?q=${encodeURIComponent(q)}`);
      expect(res.statusCode, q).toBe(200);
      expect(res.json(), q).toEqual([]);
      if (countsToo) expect(res.headers['x-total-count'], q).toBe('0');
    }
  });
}
