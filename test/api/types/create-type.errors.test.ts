// POST /types {lab_id, name}: docs/product.md §5 (types create) and §7 (type.created, data.type with lab).

import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { eventsOfType } from '../../helpers/events.js';
import { UNKNOWN_ID } from '../../helpers/shapes.js';
import { typeFixture } from '../../helpers/types.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();
const { post, unchangedPost: unchanged } = typeFixture(h);

describe('POST /types (errors)', () => {
  it.each(['Reagent', 'reagent', 'REAGENT', '  reAgent '])(
    '409 conflict for "%s": the lab already has "Reagent" (case-insensitive); nothing written',
    async (name) => {
      expectError(await unchanged(h.a.admin.token, { lab_id: h.a.legacyLab.id, name }), 409, 'conflict');
    },
  );

  it('409 for a name that differs only in case from a type created through the API', async () => {
    const first = await post(h.a.admin.token, { lab_id: h.a.otherLab.id, name: 'Enzyme Kit' });
    expect(first.statusCode, first.body).toBe(201);
    expectError(await unchanged(h.a.admin.token, { lab_id: h.a.otherLab.id, name: 'ENZYME KIT' }), 409, 'conflict');
  });

  it('concurrent creates of one name (in different cases): exactly one 201, the others 409 conflict, one type, one event', async () => {
    const names = ['Cryo box', 'cryo box', 'CRYO BOX', 'Cryo Box', 'cryo BOX', ' Cryo box'];
    const before = (await eventsOfType(h, 'com.labstock.type.created')).length;
    const results = await Promise.all(names.map((name) => post(h.a.admin.token, { lab_id: h.a.migratedLab.id, name })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expectError(r, 409, 'conflict');
    const list = await h.call(h.a.admin.token, { method: 'GET', url: `/types?lab_id=${h.a.migratedLab.id}&name=cryo%20box` });
    expect(list.json()).toHaveLength(1);
    expect(await eventsOfType(h, 'com.labstock.type.created')).toHaveLength(before + 1);
  });

  it('422 naming name when it is missing, empty, blank, too long or not a string', async () => {
    for (const payload of [
      { lab_id: h.a.legacyLab.id },
      { lab_id: h.a.legacyLab.id, name: '' },
      { lab_id: h.a.legacyLab.id, name: '   ' },
      { lab_id: h.a.legacyLab.id, name: 'x'.repeat(201) },
      { lab_id: h.a.legacyLab.id, name: 7 },
      { lab_id: h.a.legacyLab.id, name: null },
    ]) {
      expectValidation(await unchanged(h.a.admin.token, payload), 'name');
    }
  });

  it('422 naming lab_id when it is missing or not a UUID', async () => {
    expectValidation(await unchanged(h.a.admin.token, { name: 'No lab' }), 'lab_id');
    expectValidation(await unchanged(h.a.admin.token, { lab_id: 'abc', name: 'Bad lab' }), 'lab_id');
  });

  it('422 naming unknown body fields', async () => {
    expectValidation(await unchanged(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'Colored', color: 'red' }), 'color');
    expectValidation(
      await unchanged(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'With lab', lab: { id: h.a.legacyLab.id } }),
      'lab',
    );
  });

  it('404 for a lab that does not exist', async () => {
    expectError(await unchanged(h.a.admin.token, { lab_id: UNKNOWN_ID, name: 'Ghost' }), 404, 'not_found');
  });

  it('400 for malformed JSON and 415 for a non-JSON body', async () => {
    expectError(await unchanged(h.a.admin.token, '{"lab_id":', { headers: { 'content-type': 'application/json' } }), 400);
    expectError(await unchanged(h.a.admin.token, 'name=x', { headers: { 'content-type': 'text/plain' } }), 415);
  });
});
