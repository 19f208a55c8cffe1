// GET/PUT /types/{id}/storage-attributes: another organization's type and a lab the member is not in are 404 (never
// data); a member who sees the type reads but may not set them (403: managers and org admins, as the type's hazards);
// no token 401. Nothing changes on any refusal.
import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { typeStorage } from './_storage.js';

const h = useHarness({}, async (h) => {
  await h.call(h.a.admin.token, {
    method: 'PUT',
    url: `/types/${h.a.otherLab.typeId}/storage-attributes`,
    payload: { corrosive: 'acid', aqueous: true },
  });
  await h.call(h.b.admin.token, {
    method: 'PUT',
    url: `/types/${h.b.legacyLab.typeId}/storage-attributes`,
    payload: { corrosive: 'acid', aqueous: true },
  });
});
const f = typeStorage(h);

async function refused(token: string, typeId: string) {
  for (const res of [
    await f.unchanged(() => f.get(token, typeId)),
    await f.unchanged(() => f.put(token, typeId, { corrosive: 'base', aqueous: false })),
  ]) {
    expectError(res, 404, 'not_found');
    expect(res.body).not.toContain('acid');
  }
}

describe('type storage attributes (security)', () => {
  it("another organization's types are 404", async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) await refused(token, h.b.legacyLab.typeId);
    for (const token of [h.b.admin.token, h.b.member.token]) await refused(token, h.a.otherLab.typeId);
  });

  it('a lab the member is not in is 404; a user of no lab sees no type', async () => {
    await refused(h.a.member.token, h.a.otherLab.typeId);
    await refused(h.a.outsider.token, h.a.legacyLab.typeId);
  });

  it("a member reads their lab's type but may not set it: 403, nothing changes", async () => {
    expect((await f.get(h.a.member.token, h.a.legacyLab.typeId)).statusCode).toBe(200);
    expectError(
      await f.unchanged(() => f.put(h.a.member.token, h.a.legacyLab.typeId, { corrosive: 'acid', aqueous: false })),
      403,
      'forbidden',
    );
  });

  it('without a token 401', async () => {
    expectError(await f.get('', h.a.legacyLab.typeId), 401);
    expectError(await f.unchanged(() => f.put('', h.a.legacyLab.typeId, { corrosive: 'acid', aqueous: false })), 401);
  });
});
