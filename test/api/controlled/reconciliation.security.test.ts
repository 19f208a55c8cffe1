// Reconciliation's tenancy (docs/controlled-substances.md): another organization's item, or a count session of
// another organization, shows nothing.
import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { count, started } from '../stocktake/_stocktake.js';
import { get, makeControlled, reconciliation } from './_controlled.js';

const h = useHarness();

describe('reconciliation (security)', () => {
  it('without a token: 401', async () => {
    const c = await makeControlled(h);
    expectError(await reconciliation(h, null, c.itemId), 401);
    expectError(await get(h, null, `/controlled-items/${c.itemId}/reconciliation.csv`), 401);
  });

  it("another organization's item: 404 for JSON and CSV; a person outside the lab: 404", async () => {
    const c = await makeControlled(h);
    expectError(await reconciliation(h, h.b.admin.token, c.itemId, '?counted=1'), 404, 'not_found');
    expectError(await get(h, h.b.admin.token, `/controlled-items/${c.itemId}/reconciliation.csv`), 404, 'not_found');
    expectError(await reconciliation(h, h.a.outsider.token, c.itemId), 404, 'not_found');
  });

  it("a count session of another organization's lab counts nothing of this item (422), and shows none of theirs", async () => {
    const mine = await makeControlled(h);
    const theirs = await makeControlled(h, h.b);
    const view = await started(h, h.b.admin.token, theirs.places[0]);
    expect((await count(h, h.b.admin.token, view.id, theirs.instanceIds[0])).statusCode).toBe(200);
    // Their session names their item, not mine: 422 (not counted here), never their figures.
    const res = await reconciliation(h, h.a.admin.token, mine.itemId, `?stocktake_id=${view.id}`);
    expect(res.statusCode).toBe(422);
    expect(res.body).not.toContain(theirs.itemId);
  });
});
