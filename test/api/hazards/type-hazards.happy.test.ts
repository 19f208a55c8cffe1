// GET and PUT /types/{id}/hazards (docs/hazards.md): a type's statements, which every item of it without its own shows.
import { describe, expect, it } from 'vitest';
import { addItem } from '../../helpers/data.js';
import { useHarness } from '../../helpers/use-harness.js';
import { hazardsFixture } from './_hazards.js';

const h = useHarness();
const f = hazardsFixture(h);

describe('type hazards (happy)', () => {
  it('none until set; a manager (the org admin) sets them; members read them; the type resource is unchanged', async () => {
    const typeId = h.a.migratedLab.typeId;
    const typeBefore = (await h.call(h.a.member.token, { method: 'GET', url: `/types?lab_id=${h.a.migratedLab.id}` })).json();
    expect((await f.getType(h.a.member.token, typeId)).json()).toEqual({
      type_id: typeId,
      statements: [],
      classes: [],
      pictograms: [],
      signal_word: null,
      updated_by: null,
      updated_at: null,
    });
    const eventsBefore = (await f.state()).events;
    const res = await f.putType(h.a.admin.token, typeId, ['H302', 'H318', 'H412']);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      type_id: typeId,
      statements: [
        { code: 'H302', text: 'Harmful if swallowed' },
        { code: 'H318', text: 'Causes serious eye damage' },
        { code: 'H412', text: 'Harmful to aquatic life with long lasting effects' },
      ],
      pictograms: ['GHS05', 'GHS07'],
      signal_word: 'Danger',
      updated_by: { id: h.a.admin.id },
    });
    expect((await f.getType(h.a.member.token, typeId)).json()).toEqual(res.json());
    expect((await f.state()).events).toEqual(eventsBefore);
    expect((await h.call(h.a.member.token, { method: 'GET', url: `/types?lab_id=${h.a.migratedLab.id}` })).json()).toEqual(typeBefore);

    const item = await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name: 'Hydrogen peroxide 30 %', typeId });
    expect((await f.getItem(h.a.member.token, item.id)).json()).toMatchObject({ source: 'type', pictograms: ['GHS05', 'GHS07'] });
  });

  it('[] removes them, and the same list again changes nothing', async () => {
    const typeId = h.a.legacyLab.typeId;
    await f.putType(h.a.admin.token, typeId, ['H226']);
    const again = await f.unchanged(() => f.putType(h.a.admin.token, typeId, ['h226']));
    expect(again.json().statements).toEqual([{ code: 'H226', text: 'Flammable liquid and vapour' }]);
    const removed = await f.putType(h.a.admin.token, typeId, []);
    expect(removed.json()).toMatchObject({ statements: [], pictograms: [], updated_by: null });
    expect(await h.deps.db.selectFrom('hazard_sets').selectAll().where('type_id', '=', typeId).execute()).toEqual([]);
  });

  it('a deleted type takes its statements with it', async () => {
    const created = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/types',
      payload: { lab_id: h.a.legacyLab.id, name: 'Solvents' },
    });
    const typeId = created.json().id;
    await f.putType(h.a.admin.token, typeId, ['H225']);
    expect((await h.call(h.a.admin.token, { method: 'DELETE', url: `/types/${typeId}` })).statusCode).toBe(204);
    expect(await h.deps.db.selectFrom('hazard_sets').selectAll().where('type_id', '=', typeId).execute()).toEqual([]);
  });
});
