import { describe, it } from 'vitest';
import { expectValidationError } from '../../helpers/errors.js';
import { itTreatsQAsText } from '../../helpers/search-text.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const list = (query: string) => h.call(h.a.admin.token, { method: 'GET', url: `/labs${query}` });

describe('GET /labs?q= (errors)', () => {
  itTreatsQAsText(list, ["lab' OR '1'='1", '\\', 'lab\\%']);

  it('the other parameters are still checked with q', async () => {
    expectValidationError(await list('?q=lab&per_page=101'), 'per_page');
    expectValidationError(await list('?q=lab&organization_id=nope'), 'organization_id');
  });
});
