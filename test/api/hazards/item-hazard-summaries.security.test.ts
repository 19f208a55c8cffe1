// GET /hazards/inventory-items?ids=: items the caller does not see are left out, never shown; no token 401.
import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { hazardsFixture } from './_hazards.js';

const h = useHarness({}, async (h) => {
  await h.call(h.b.admin.token, {
    method: 'PUT',
    url: `/inventory-items/${h.b.legacyLab.itemId}/hazards`,
    payload: { hazard_statements: ['H300'] },
  });
});
const f = hazardsFixture(h);

describe('item hazard summaries (security)', () => {
  it("another organization's items and a lab the member is not in are left out", async () => {
    const res = await f.summaries(h.a.member.token, [h.b.legacyLab.itemId, h.a.legacyLab.itemId]);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((r: any) => r.item_id)).toEqual([h.a.legacyLab.itemId]);
    expect(res.body).not.toContain('GHS06');
    expect((await f.summaries(h.a.outsider.token, [h.a.legacyLab.itemId])).json()).toEqual([]);
    expect((await f.summaries(h.b.admin.token, [h.b.legacyLab.itemId])).json()[0].pictograms).toEqual(['GHS06']);
  });

  it('without a token 401', async () => {
    expectError(await f.summaries('', [h.a.legacyLab.itemId]), 401);
  });
});
