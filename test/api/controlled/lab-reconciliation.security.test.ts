// A lab's reconciliation's tenancy (docs/controlled-substances.md): without a token 401; another organization's lab
// and a lab the person is not in are 404 for JSON, CSV and PDF, never its items.
import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { labReconciliation, makeControlled } from './_controlled.js';

const h = useHarness();

describe('lab reconciliation (security)', () => {
  it('401 without a token; 404 for another organization and for someone outside the lab', async () => {
    const c = await makeControlled(h);
    for (const suffix of ['', '.csv', '.pdf']) {
      expectError(await labReconciliation(h, null, h.a.migratedLab.id, suffix), 401);
      for (const token of [h.b.admin.token, h.a.outsider.token]) {
        const res = await labReconciliation(h, token, h.a.migratedLab.id, suffix);
        expectError(res, 404, 'not_found');
        expect(res.body).not.toContain(c.itemId);
      }
    }
    // Their own lab shows none of ours.
    const theirs = await labReconciliation(h, h.b.admin.token, h.b.migratedLab.id);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.body).not.toContain(c.itemId);
  });
});
