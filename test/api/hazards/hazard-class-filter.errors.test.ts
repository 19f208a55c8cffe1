// GET /inventory-items?hazard_class=: an unknown class is 422 naming the parameter.
import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { hazardsFixture } from './_hazards.js';

const h = useHarness();
const f = hazardsFixture(h);

describe('filter by hazard class (errors)', () => {
  it('an unknown or empty class is 422 naming hazard_class', async () => {
    for (const value of ['flammable', 'H225', '', 'Flammable-Liquid']) {
      const body = expectError(await f.list(h.a.member.token, `hazard_class=${encodeURIComponent(value)}`), 422, 'validation_failed');
      expect(JSON.stringify(body)).toContain('hazard_class');
    }
  });
});
