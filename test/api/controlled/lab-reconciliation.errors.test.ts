// A lab's reconciliation's refusals (docs/controlled-substances.md): a malformed lab id is 422, an unknown one 404,
// for JSON, CSV and PDF alike.
import { describe, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { labReconciliation } from './_controlled.js';

const h = useHarness();

describe('lab reconciliation (errors)', () => {
  it('a malformed lab id: 422; an unknown lab: 404', async () => {
    for (const suffix of ['', '.csv', '.pdf']) {
      expectValidation(await labReconciliation(h, h.a.admin.token, 'nope', suffix), 'labId');
      expectError(await labReconciliation(h, h.a.admin.token, '00000000-0000-4000-8000-000000000000', suffix), 404, 'not_found');
    }
  });
});
