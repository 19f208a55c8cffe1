// The reconciliation PDF's tenancy (docs/controlled-substances.md): without a token 401; another organization's item
// or a person outside the lab: 404, never a PDF; the same for an item no longer controlled.
import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { get, makeControlled, unmark } from './_controlled.js';

const h = useHarness();

describe('reconciliation PDF (security)', () => {
  it('401 without a token; 404 for another organization and for someone outside the lab', async () => {
    const c = await makeControlled(h);
    const url = `/controlled-items/${c.itemId}/reconciliation.pdf`;
    expectError(await get(h, null, url), 401);
    for (const token of [h.b.admin.token, h.a.outsider.token]) {
      const res = await get(h, token, url);
      expectError(res, 404, 'not_found');
      expect(res.headers['content-type']).not.toMatch(/pdf/);
    }
  });

  it('an item no longer controlled: its records only to the lab, 404 for another organization and for an outsider', async () => {
    const c = await makeControlled(h);
    expect((await unmark(h, h.a.admin.token, c.itemId)).statusCode).toBe(200);
    const url = `/controlled-items/${c.itemId}/reconciliation.pdf`;
    expect((await get(h, h.a.member.token, url)).statusCode).toBe(200);
    for (const token of [h.b.admin.token, h.a.outsider.token]) {
      const res = await get(h, token, url);
      expectError(res, 404, 'not_found');
      expect(res.headers['content-type']).not.toMatch(/pdf/);
    }
  });
});
