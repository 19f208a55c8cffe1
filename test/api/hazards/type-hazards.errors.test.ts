// PUT /types/{id}/hazards refusals: unknown codes 422 naming them, malformed bodies, a missing type; nothing changes.
import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { hazardsFixture } from './_hazards.js';

const h = useHarness({}, async (h) => {
  await h.call(h.a.admin.token, { method: 'PUT', url: `/types/${h.a.legacyLab.typeId}/hazards`, payload: { hazard_statements: ['H290'] } });
});
const f = hazardsFixture(h);

describe('type hazards (errors)', () => {
  it('an unknown code is 422 naming it; nothing changes', async () => {
    const res = await f.unchanged(() => f.putType(h.a.admin.token, h.a.legacyLab.typeId, ['H314', 'H3140']));
    const body = expectValidation(res, 'hazard_statements[1]');
    expect(body.message).toContain('"H3140" is not a GHS hazard statement');
    expect((await f.getType(h.a.admin.token, h.a.legacyLab.typeId)).json().statements.map((s: any) => s.code)).toEqual(['H290']);
  });

  it('null, a missing field, unknown fields and too many codes are 422', async () => {
    const typeId = h.a.legacyLab.typeId;
    expectError(await f.unchanged(() => f.putType(h.a.admin.token, typeId, null)), 422, 'validation_failed');
    expectError(await f.unchanged(() => h.call(h.a.admin.token, { method: 'PUT', url: f.typeUrl(typeId), payload: {} })), 422);
    const extra = await f.unchanged(() =>
      h.call(h.a.admin.token, { method: 'PUT', url: f.typeUrl(typeId), payload: { hazard_statements: [], name: 'x' } }),
    );
    expectError(extra, 422, 'validation_failed');
    expectError(await f.unchanged(() => f.putType(h.a.admin.token, typeId, Array(41).fill('H290'))), 422, 'validation_failed');
  });

  it('malformed JSON 400; a missing type 404; a malformed id 422', async () => {
    const bad = await f.unchanged(() =>
      h.call(h.a.admin.token, {
        method: 'PUT',
        url: f.typeUrl(h.a.legacyLab.typeId),
        headers: { 'content-type': 'application/json' },
        payload: '[',
      }),
    );
    expectError(bad, 400, 'invalid_json');
    const gone = '00000000-0000-4000-8000-000000000000';
    expectError(await f.getType(h.a.admin.token, gone), 404, 'not_found');
    expectError(await f.unchanged(() => f.putType(h.a.admin.token, gone, ['H225'])), 404, 'not_found');
    expectError(await f.getType(h.a.admin.token, 'nope'), 422, 'validation_failed');
  });
});
