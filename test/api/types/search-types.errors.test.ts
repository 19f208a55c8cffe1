import { describe, it } from 'vitest';
import { expectValidationError } from '../../helpers/errors.js';
import { itTreatsQAsText } from '../../helpers/search-text.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const list = (query: string) => h.call(h.a.admin.token, { method: 'GET', url: `/types${query}` });

describe('GET /types?q= (errors)', () => {
  itTreatsQAsText(list, ["Reagent' OR '1'='1", '\\', 'ent\\%']);

  it('the other parameters are still checked with q', async () => {
    expectValidationError(await list('?q=r&lab_id=nope'), 'lab_id');
    expectValidationError(await list('?q=r&page=0'), 'page');
  });
});
