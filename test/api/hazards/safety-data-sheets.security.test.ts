// Safety data sheets: another organization's documents and items are 404 (never data); a type's sheet is marked by
// its lab's managers and org admins only (403); no token 401.
import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { pdf, upload } from '../attachments/_attachments.js';

let typeDocA: string;
let typeDocB: string;
const h = useHarness({}, async (h) => {
  typeDocA = (await upload(h, h.a.admin.token, { kind: 'type', typeId: h.a.legacyLab.typeId }, pdf('SDS A'))).json().id;
  typeDocB = (await upload(h, h.b.admin.token, { kind: 'type', typeId: h.b.legacyLab.typeId }, pdf('SDS B'), 'secret-b.pdf')).json().id;
  await h.call(h.b.admin.token, {
    method: 'PUT',
    url: `/attachments/${typeDocB}/safety-data-sheet`,
    payload: { revised_on: '2020-01-01' },
  });
});
const mark = (token: string, id: string) =>
  h.call(token, { method: 'PUT', url: `/attachments/${id}/safety-data-sheet`, payload: { revised_on: '2021-03-12' } });
const marks = () => h.deps.db.selectFrom('attachments').select(['id', 'sds_revised_on']).orderBy('id').execute();

describe('safety data sheets (security)', () => {
  it("another organization's document and item are 404, never data", async () => {
    const before = await marks();
    for (const token of [h.a.admin.token, h.a.member.token]) {
      expectError(await mark(token, typeDocB), 404, 'not_found');
      const res = await h.call(token, { method: 'GET', url: `/inventory-items/${h.b.legacyLab.itemId}/safety-data-sheets` });
      expectError(res, 404, 'not_found');
      expect(res.body).not.toContain('secret-b');
    }
    expect(await marks()).toEqual(before);
  });

  it("a member may not mark a type's document (403); the org admin may", async () => {
    const before = await marks();
    expectError(await mark(h.a.member.token, typeDocA), 403, 'forbidden');
    expect(await marks()).toEqual(before);
    expect((await mark(h.a.admin.token, typeDocA)).statusCode).toBe(200);
  });

  it('without a token 401', async () => {
    expectError(await mark('', typeDocA), 401);
    expectError(await h.call(null, { method: 'GET', url: `/inventory-items/${h.a.legacyLab.itemId}/safety-data-sheets` }), 401);
  });
});
