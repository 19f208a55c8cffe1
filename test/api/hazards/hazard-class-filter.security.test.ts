// GET /inventory-items?hazard_class=: only the caller's visible items, never another organization's or lab's.
import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { hazardsFixture } from './_hazards.js';

const h = useHarness({}, async (h) => {
  const put = (token: string, url: string) => h.call(token, { method: 'PUT', url, payload: { hazard_statements: ['H225'] } });
  await put(h.b.admin.token, `/inventory-items/${h.b.legacyLab.itemId}/hazards`);
  await put(h.a.admin.token, `/types/${h.a.otherLab.typeId}/hazards`);
  await put(h.a.admin.token, `/inventory-items/${h.a.legacyLab.itemId}/hazards`);
});
const f = hazardsFixture(h);

describe('filter by hazard class (security)', () => {
  it("another organization's flammables never show; a lab the member is not in neither", async () => {
    const mine = await f.list(h.a.member.token, 'hazard_class=flammable-liquid&per_page=100');
    expect(mine.json().map((i: any) => i.id)).toEqual([h.a.legacyLab.itemId]);
    expect((await f.list(h.a.outsider.token, 'hazard_class=flammable-liquid')).json()).toEqual([]);
    expect((await f.list(h.b.admin.token, 'hazard_class=flammable-liquid')).json().map((i: any) => i.id)).toEqual([h.b.legacyLab.itemId]);
  });

  it("another organization's lab_id is 404 or empty, never its items", async () => {
    const res = await f.list(h.a.admin.token, `lab_id=${h.b.legacyLab.id}&hazard_class=flammable-liquid`);
    if (res.statusCode === 200) expect(res.json()).toEqual([]);
    else expectError(res, 404);
  });
});
