// Reconciliation's refusals (docs/controlled-substances.md).
import { describe, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { started } from '../stocktake/_stocktake.js';
import { makeControlled, makeItem, reconciliation } from './_controlled.js';

const h = useHarness();

describe('reconciliation (errors)', () => {
  it('a count or a stocktake, not both; a count is a non-negative decimal', async () => {
    const c = await makeControlled(h);
    const view = await started(h, h.a.admin.token, c.places[0]);
    expectValidation(await reconciliation(h, h.a.admin.token, c.itemId, `?counted=1&stocktake_id=${view.id}`), 'counted');
    expectValidation(await reconciliation(h, h.a.admin.token, c.itemId, '?counted=-1'), 'counted');
    expectValidation(await reconciliation(h, h.a.admin.token, c.itemId, '?counted=lots'), 'counted');
  });

  it('a count session that did not count the item: 422; an item that is not controlled: 404', async () => {
    const c = await makeControlled(h);
    const view = await started(h, h.a.admin.token, c.places[1]);
    expectValidation(await reconciliation(h, h.a.admin.token, c.itemId, `?stocktake_id=${view.id}`), 'stocktake_id');
    const plain = await makeItem(h);
    expectError(await reconciliation(h, h.a.admin.token, plain.itemId), 404, 'not_found');
  });
});
