// The reconciliation PDF's refusals (docs/controlled-substances.md): a period is two real days in order; a count or a
// count session, not both; an item that is not controlled is 404.
import { describe, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { started } from '../stocktake/_stocktake.js';
import { get, makeControlled, makeItem } from './_controlled.js';

const h = useHarness();
const pdf = (itemId: string, query: string) => get(h, h.a.admin.token, `/controlled-items/${itemId}/reconciliation.pdf${query}`);

describe('reconciliation PDF (errors)', () => {
  it('a period that ends before it starts, or days that are not dates: 422', async () => {
    const c = await makeControlled(h);
    expectValidation(await pdf(c.itemId, '?from=2026-11-27&to=2026-11-01'), 'to');
    expectValidation(await pdf(c.itemId, '?from=2026-02-30'), 'from');
    expectValidation(await pdf(c.itemId, '?to=yesterday'), 'to');
  });

  it('a count and a count session together: 422; a malformed count 422; not controlled 404; an unknown item 404', async () => {
    const c = await makeControlled(h);
    const view = await started(h, h.a.admin.token, c.places[0]);
    expectValidation(await pdf(c.itemId, `?counted=1&stocktake_id=${view.id}`), 'counted');
    expectValidation(await pdf(c.itemId, '?counted=-1'), 'counted');
    expectError(await pdf((await makeItem(h)).itemId, ''), 404, 'not_found');
    expectError(await pdf('00000000-0000-4000-8000-000000000000', ''), 404, 'not_found');
  });
});
