// PUT /attachments/{id}/safety-data-sheet refusals: a future or malformed date, a container's document, a missing
// document; nothing changes.
import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { pdf, upload } from '../attachments/_attachments.js';

let itemDoc: string;
let instanceDoc: string;
const h = useHarness({}, async (h) => {
  itemDoc = (await upload(h, h.a.admin.token, { kind: 'item', itemId: h.a.legacyLab.itemId }, pdf('SDS'))).json().id;
  const m = h.a.migratedLab;
  instanceDoc = (await upload(h, h.a.admin.token, { kind: 'instance', itemId: m.itemId, instanceId: m.instanceIds[0]! }, pdf('CoA'))).json()
    .id;
});
const mark = (id: string, payload: unknown) =>
  h.call(h.a.admin.token, { method: 'PUT', url: `/attachments/${id}/safety-data-sheet`, payload: payload as object });
const marks = () => h.deps.db.selectFrom('attachments').select(['id', 'sds_revised_on']).orderBy('id').execute();

describe('safety data sheets (errors)', () => {
  it('a date in the future, a malformed one, a missing field are 422; nothing changes', async () => {
    const before = await marks();
    expectValidation(await mark(itemDoc, { revised_on: '2999-01-01' }), 'revised_on');
    expectError(await mark(itemDoc, { revised_on: '12 March 2021' }), 422, 'validation_failed');
    expectError(await mark(itemDoc, {}), 422, 'validation_failed');
    expectError(await mark(itemDoc, { revised_on: '2021-03-12', extra: 1 }), 422, 'validation_failed');
    expect(await marks()).toEqual(before);
  });

  it("a container's document cannot be a safety data sheet (422); a missing document 404", async () => {
    const before = await marks();
    expectValidation(await mark(instanceDoc, { revised_on: '2021-03-12' }), 'id');
    expectError(await mark('00000000-0000-4000-8000-000000000000', { revised_on: '2021-03-12' }), 404, 'not_found');
    expectError(
      await h.call(h.a.admin.token, { method: 'GET', url: '/inventory-items/00000000-0000-4000-8000-000000000000/safety-data-sheets' }),
      404,
    );
    expect(await marks()).toEqual(before);
  });
});
