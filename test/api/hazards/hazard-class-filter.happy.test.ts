// GET /inventory-items?hazard_class= (docs/api.md, docs/hazards.md): items whose statements (their own, else their
// type's) give the class; with the other filters; the answer is the contract's items, unchanged.
import { describe, expect, it } from 'vitest';
import { addItem } from '../../helpers/data.js';
import { useHarness } from '../../helpers/use-harness.js';
import { hazardsFixture } from './_hazards.js';

const ids: Record<string, string> = {};
const h = useHarness({}, async (h) => {
  const lab = h.a.migratedLab;
  const put = (url: string, codes: string[]) => h.call(h.a.admin.token, { method: 'PUT', url, payload: { hazard_statements: codes } });
  await put(`/types/${lab.typeId}/hazards`, ['H226']);
  for (const name of ['Inherits xylene', 'Overrides peroxide', 'Own hexane', 'Plain water'])
    ids[name] = (await addItem(h, h.a.admin.actor, { labId: lab.id, name, typeId: name === 'Plain water' ? null : lab.typeId })).id;
  await put(`/inventory-items/${ids['Overrides peroxide']}/hazards`, ['H242']);
  await put(`/inventory-items/${ids['Own hexane']}/hazards`, ['H225', 'H304']);
});
const f = hazardsFixture(h);

const names = (res: { json(): any }) =>
  res
    .json()
    .map((i: any) => i.name)
    .sort();

describe('filter by hazard class (happy)', () => {
  it('own and inherited statements; an own set overrides the type', async () => {
    const flammable = await f.list(h.a.member.token, `lab_id=${h.a.migratedLab.id}&hazard_class=flammable-liquid`);
    expect(flammable.statusCode, flammable.body).toBe(200);
    // The fixture's own Anti-GFP item is of the same type, so it inherits H226 too.
    expect(names(flammable)).toEqual(['Anti-GFP A', 'Inherits xylene', 'Own hexane']);
    expect(flammable.headers['x-total-count']).toBe('3');
    expect(names(await f.list(h.a.member.token, `lab_id=${h.a.migratedLab.id}&hazard_class=organic-peroxide`))).toEqual([
      'Overrides peroxide',
    ]);
    expect(names(await f.list(h.a.member.token, `hazard_class=aspiration-hazard`))).toEqual(['Own hexane']);
    expect((await f.list(h.a.member.token, 'hazard_class=explosive')).json()).toEqual([]);
  });

  it('combines with the other filters and search', async () => {
    expect(names(await f.list(h.a.member.token, 'hazard_class=flammable-liquid&q=hexane'))).toEqual(['Own hexane']);
    expect(names(await f.list(h.a.member.token, `hazard_class=flammable-liquid&type_id=${h.a.migratedLab.typeId}&sort=name`))).toEqual([
      'Anti-GFP A',
      'Inherits xylene',
      'Own hexane',
    ]);
  });

  it('the items are the contract items, as the plain list shows them', async () => {
    const plain = (await f.list(h.a.member.token, `lab_id=${h.a.migratedLab.id}&per_page=100`)).json();
    for (const item of (await f.list(h.a.member.token, 'hazard_class=flammable-liquid')).json())
      expect(item).toEqual(plain.find((p: any) => p.id === item.id));
  });
});
