import { describe, it } from 'vitest';
import { expectValidationError } from '../../helpers/errors.js';
import { itTreatsQAsText } from '../../helpers/search-text.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const list = (query: string) => h.call(h.a.admin.token, { method: 'GET', url: `/organization/users${query}` });

describe('GET /organization/users?q= (errors)', () => {
  itTreatsQAsText(list, ["ada' OR '1'='1", '\\', 'ada\\%'], true);

  it('the paging parameters are still checked with q', async () => {
    expectValidationError(await list('?q=a&per_page=0'), 'per_page');
  });
});
