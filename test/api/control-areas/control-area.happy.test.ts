import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';

// A location as a control area (docs/safety.md): the IFC defaults, the sprinkler and cabinet increases, limits set
// by hand, unmarking, and the lab's safety settings. Both databases.

const h = useHarness();
const lab = () => h.a.migratedLab;
const shelf = () => lab().locationIds[2]!;
const url = () => `/locations/${shelf()}/control-area`;
const limitOf = (body: any, category: string, state: string) =>
  body.limits.find((l: { category: string; state: string }) => l.category === category && l.state === state);

describe('control areas', () => {
  it('a location not marked shows the defaults it would get; marking it with options multiplies them', async () => {
    const before = await h.call(h.a.member.token, { method: 'GET', url: url() });
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toMatchObject({ location_id: shelf(), marked: false, sprinklered: false, cabinets: false, can_edit: false });
    // IFC 2021 Table 5003.1.1(1): flammable liquids IA 30 gal = 113.562 L; oxidizers class 3 solid 10 lb = 4.536 kg.
    expect(limitOf(before.json(), 'flammable-liquid-ia', 'liquid')).toMatchObject({
      limit: '113.562',
      unit: 'L',
      source: 'default',
      label: 'Flammable liquids IA',
    });
    expect(limitOf(before.json(), 'oxidizer-3', 'solid')).toMatchObject({ limit: '4.536', unit: 'kg' });
    // Table 5003.1.1(2): corrosive gas 810 cu ft = 22.937 m³.
    expect(limitOf(before.json(), 'corrosive', 'gas')).toMatchObject({ limit: '22.937', unit: 'm³' });

    const marked = await h.call(h.a.admin.token, { method: 'PUT', url: url(), payload: { sprinklered: true, cabinets: true } });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toMatchObject({ marked: true, sprinklered: true, cabinets: true, can_edit: true });
    expect(limitOf(marked.json(), 'flammable-liquid-ia', 'liquid').limit).toBe('454.249');

    const sprinklersOnly = await h.call(h.a.admin.token, { method: 'PUT', url: url(), payload: { sprinklered: true, cabinets: false } });
    expect(limitOf(sprinklersOnly.json(), 'flammable-liquid-ia', 'liquid').limit).toBe('227.125');
  });

  it('a limit set by hand replaces its default, the others keep theirs; unmarking removes it all', async () => {
    const set = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: url(),
      payload: { sprinklered: false, cabinets: false, limits: [{ category: 'flammable-liquid-ib-ic', state: 'liquid', limit: '120' }] },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(limitOf(set.json(), 'flammable-liquid-ib-ic', 'liquid')).toMatchObject({ limit: '120', source: 'set' });
    expect(limitOf(set.json(), 'flammable-liquid-ia', 'liquid')).toMatchObject({ limit: '113.562', source: 'default' });
    const meter = await h.call(h.a.member.token, { method: 'GET', url: `${url()}/meter` });
    expect(meter.json()).toMatchObject({ location_id: shelf(), marked: true, lines: [] });

    const gone = await h.call(h.a.admin.token, { method: 'DELETE', url: url() });
    expect(gone.statusCode, gone.body).toBe(204);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: url() })).json().marked).toBe(false);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `${url()}/meter` })).json()).toMatchObject({ marked: false, lines: [] });
    // Unmarking what is not marked is no error.
    expect((await h.call(h.a.admin.token, { method: 'DELETE', url: url() })).statusCode).toBe(204);
  });

  it('deleting the location deletes its marking', async () => {
    const loc = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/locations',
      payload: { lab_id: lab().id, parent_id: null, name: 'Temporary store' },
    });
    const id = loc.json().id;
    expect(
      (
        await h.call(h.a.admin.token, {
          method: 'PUT',
          url: `/locations/${id}/control-area`,
          payload: { sprinklered: false, cabinets: false },
        })
      ).statusCode,
    ).toBe(200);
    expect((await h.call(h.a.admin.token, { method: 'DELETE', url: `/locations/${id}` })).statusCode).toBe(204);
    expect(
      await h.deps.db.selectFrom('control_areas').select('location_id').where('location_id', '=', id).executeTakeFirst(),
    ).toBeUndefined();
  });

  it("a lab's safety settings: warn by default, set by an admin, read by a member", async () => {
    const first = await h.call(h.a.member.token, { method: 'GET', url: `/labs/${lab().id}/safety-settings` });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ lab_id: lab().id, segregation: 'warn', limits: 'warn', can_edit: false });
    const set = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/labs/${lab().id}/safety-settings`,
      payload: { segregation: 'block', limits: 'warn' },
    });
    expect(set.json()).toEqual({ lab_id: lab().id, segregation: 'block', limits: 'warn', can_edit: true });
    const again = await h.call(h.a.member.token, { method: 'GET', url: `/labs/${lab().id}/safety-settings` });
    expect(again.json()).toMatchObject({ segregation: 'block', limits: 'warn' });
  });
});
