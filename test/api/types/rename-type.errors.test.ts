// PUT /types/{id} {name}: docs/product.md §5 (types rename) and §7 (type.updated; same name: no event).

import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { eventsOfType } from '../../helpers/events.js';
import { UNKNOWN_ID } from '../../helpers/shapes.js';
import { typeFixture } from '../../helpers/types.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();
const { put, newType, unchangedPut: unchanged, updatedEventsFor } = typeFixture(h);

describe('PUT /types/{id} (errors)', () => {
  it.each(['Reagent', 'REAGENT', 'reagent', ' Reagent '])(
    '409 conflict renaming to "%s" when the lab has "Reagent"; nothing changes',
    async (name) => {
      const type = await newType(h.a.legacyLab.id, `Clash ${name.trim().length}${Math.random().toString(36).slice(2, 6)}`);
      expectError(await unchanged(h.a.admin.token, type.id, { name }), 409, 'conflict');
      expect(await updatedEventsFor(type.id)).toEqual([]);
    },
  );

  it('concurrent renames of several types to one name: exactly one 200, the others 409 conflict, one event', async () => {
    const types = await Promise.all(['R1', 'R2', 'R3', 'R4', 'R5'].map((n) => newType(h.a.migratedLab.id, `Racer ${n}`)));
    const before = (await eventsOfType(h, 'com.labstock.type.updated')).length;
    const results = await Promise.all(types.map((t, i) => put(h.a.admin.token, t.id, { name: i % 2 ? 'WINNER' : 'winner' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expectError(r, 409, 'conflict');
    const list = await h.call(h.a.admin.token, { method: 'GET', url: `/types?lab_id=${h.a.migratedLab.id}&name=winner` });
    expect(list.json()).toHaveLength(1);
    expect(await eventsOfType(h, 'com.labstock.type.updated')).toHaveLength(before + 1);
  });

  it('422 naming name when it is missing, empty, blank, too long or not a string', async () => {
    const id = h.a.legacyLab.typeId;
    for (const payload of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(201) }, { name: 1 }, { name: null }]) {
      expectValidation(await unchanged(h.a.admin.token, id, payload), 'name');
    }
  });

  it('422 naming unknown body fields (lab_id cannot move a type)', async () => {
    expectValidation(await unchanged(h.a.admin.token, h.a.legacyLab.typeId, { name: 'Moved', lab_id: h.a.otherLab.id }), 'lab_id');
    expectValidation(await unchanged(h.a.admin.token, h.a.legacyLab.typeId, { name: 'X', extra: true }), 'extra');
  });

  it('422 naming id for a non-UUID id; 404 for an unknown one', async () => {
    expectValidation(await unchanged(h.a.admin.token, 'abc', { name: 'X' }), 'id');
    expectError(await unchanged(h.a.admin.token, UNKNOWN_ID, { name: 'X' }), 404, 'not_found');
  });
});
