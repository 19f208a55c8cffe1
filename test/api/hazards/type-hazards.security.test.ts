// GET and PUT /types/{id}/hazards: another organization's type and a lab the member is not in are 404 (never data);
// a member who sees the type reads but may not set them (403, only managers and org admins); no token 401.
import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { hazardsFixture } from './_hazards.js';

const h = useHarness({}, async (h) => {
  await h.call(h.a.admin.token, { method: 'PUT', url: `/types/${h.a.otherLab.typeId}/hazards`, payload: { hazard_statements: ['H241'] } });
  await h.call(h.b.admin.token, { method: 'PUT', url: `/types/${h.b.legacyLab.typeId}/hazards`, payload: { hazard_statements: ['H241'] } });
});
const f = hazardsFixture(h);

async function refused(token: string, typeId: string) {
  for (const res of [await f.unchanged(() => f.getType(token, typeId)), await f.unchanged(() => f.putType(token, typeId, ['H225']))]) {
    expectError(res, 404, 'not_found');
    expect(res.body).not.toContain('H241');
  }
}

describe('type hazards (security)', () => {
  it("another organization's types are 404", async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) await refused(token, h.b.legacyLab.typeId);
    for (const token of [h.b.admin.token, h.b.member.token]) await refused(token, h.a.otherLab.typeId);
  });

  it('a lab the member is not in is 404; a user of no lab sees no type', async () => {
    await refused(h.a.member.token, h.a.otherLab.typeId);
    await refused(h.a.outsider.token, h.a.legacyLab.typeId);
  });

  it("a member reads their lab's type but may not set it: 403, nothing changes", async () => {
    expect((await f.getType(h.a.member.token, h.a.legacyLab.typeId)).statusCode).toBe(200);
    const res = await f.unchanged(() => f.putType(h.a.member.token, h.a.legacyLab.typeId, ['H225']));
    expectError(res, 403, 'forbidden');
  });

  it('without a token 401', async () => {
    expectError(await f.getType('', h.a.legacyLab.typeId), 401);
    expectError(await f.unchanged(() => f.putType('', h.a.legacyLab.typeId, ['H225'])), 401);
  });
});
