// GET /hazards/inventory-items?ids= refusals: no ids, too many, a malformed one.
import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { hazardsFixture } from './_hazards.js';

const h = useHarness();
const f = hazardsFixture(h);

describe('item hazard summaries (errors)', () => {
  it('without ids 422; an empty list 422; more than 100 ids 422; a malformed id 422', async () => {
    expectError(await h.call(h.a.admin.token, { method: 'GET', url: '/hazards/inventory-items' }), 422, 'validation_failed');
    expectValidation(await f.summaries(h.a.admin.token, []), 'ids');
    const many = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expectValidation(await f.summaries(h.a.admin.token, many), 'ids');
    const bad = expectValidation(await f.summaries(h.a.admin.token, [h.a.legacyLab.itemId, 'drop table']), 'ids');
    expect(bad.message).toContain('is not an item id');
  });
});
