// PUT /inventory-items/{id}/hazards refusals (docs/hazards.md): an unknown code is 422 naming it and why, a stale
// If-Match 412, a malformed body 400/422, and none of them changes anything.
import { describe, expect, it } from 'vitest';
import { addItem } from '../../helpers/data.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { hazardsFixture } from './_hazards.js';

let itemId: string;
const h = useHarness({}, async (h) => {
  itemId = (await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Acetone', quantity: '1' })).id;
  await h.call(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${itemId}/hazards`, payload: { hazard_statements: ['H225'] } });
});
const f = hazardsFixture(h);

describe('item hazards (errors)', () => {
  it('an unknown code is 422 naming each wrong one, with the reason; nothing changes', async () => {
    const res = await f.unchanged(() => f.putItem(h.a.member.token, itemId, ['H225', 'H999', 'EUH066', 'P210', 'H225+H319']));
    const body = expectValidation(res, 'hazard_statements[1]');
    expect(body.errors.map((e: any) => e.field)).toEqual([
      'hazard_statements[1]',
      'hazard_statements[2]',
      'hazard_statements[3]',
      'hazard_statements[4]',
    ]);
    expect(body.message).toContain('"H999" is not a GHS hazard statement');
    expect(body.message).toContain('enter H225 and H319 separately');
    expect((await f.getItem(h.a.member.token, itemId)).json().own_statements).toEqual(['H225']);
  });

  it('empty strings, non-strings, a missing field, unknown fields and too many codes are 422', async () => {
    expectValidation(await f.unchanged(() => f.putItem(h.a.member.token, itemId, [''])), 'hazard_statements[0]');
    expectError(await f.unchanged(() => f.putItem(h.a.member.token, itemId, [225])), 422, 'validation_failed');
    expectError(await f.unchanged(() => f.putItem(h.a.member.token, itemId, 'H225')), 422, 'validation_failed');
    const missing = await f.unchanged(() => h.call(h.a.member.token, { method: 'PUT', url: f.itemUrl(itemId), payload: {} }));
    expectError(missing, 422, 'validation_failed');
    const extra = await f.unchanged(() =>
      h.call(h.a.member.token, { method: 'PUT', url: f.itemUrl(itemId), payload: { hazard_statements: [], pictograms: ['GHS01'] } }),
    );
    expectError(extra, 422, 'validation_failed');
    const many = Array.from({ length: 41 }, () => 'H225');
    expectError(await f.unchanged(() => f.putItem(h.a.member.token, itemId, many)), 422, 'validation_failed');
  });

  it('a stale If-Match is 412 and changes nothing', async () => {
    const res = await f.unchanged(() => f.putItem(h.a.member.token, itemId, ['H226'], { 'if-match': '"v1"' }));
    expectError(res, 412, 'precondition_failed');
  });

  it('malformed JSON is 400, another media type 415, a malformed id 422', async () => {
    const bad = await f.unchanged(() =>
      h.call(h.a.member.token, {
        method: 'PUT',
        url: f.itemUrl(itemId),
        headers: { 'content-type': 'application/json' },
        payload: '{"hazard',
      }),
    );
    expectError(bad, 400, 'invalid_json');
    const text = await f.unchanged(() =>
      h.call(h.a.member.token, { method: 'PUT', url: f.itemUrl(itemId), headers: { 'content-type': 'text/plain' }, payload: 'H225' }),
    );
    expectError(text, 415);
    expectError(await f.getItem(h.a.member.token, 'not-a-uuid'), 422, 'validation_failed');
  });

  it('an item that does not exist is 404', async () => {
    const gone = '00000000-0000-4000-8000-000000000000';
    expectError(await f.getItem(h.a.member.token, gone), 404, 'not_found');
    expectError(await f.unchanged(() => f.putItem(h.a.member.token, gone, ['H225'])), 404, 'not_found');
  });
});
