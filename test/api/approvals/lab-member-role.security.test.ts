import { describe, expect, it } from 'vitest';
import { addMember, setRole, useApprovalFixture } from '../../helpers/approvals.js';
import { expectError } from '../../helpers/errors.js';

const { h, f } = useApprovalFixture();

const roles = () =>
  h.deps.db.selectFrom('lab_memberships').select(['lab_id', 'user_id', 'role']).orderBy('lab_id').orderBy('user_id').execute();

describe('lab member roles: security', () => {
  it("org B's admin gets 404 for org A's lab and users, and org A's admin for org B's users; nothing changes", async () => {
    const before = await roles();
    expectError(await setRole(h, f.stranger.token, f.lab.id, f.plain.id, 'manager'), 404, 'not_found');
    expectError(await addMember(h, f.stranger.token, f.lab.id, f.stranger.id, 'manager'), 404, 'not_found');
    expectError(await addMember(h, f.admin.token, f.lab.id, h.b.member.id, 'manager'), 404, 'not_found');
    expectError(await setRole(h, f.admin.token, f.lab.id, h.b.member.id, 'manager'), 404, 'not_found');
    expect(await roles()).toEqual(before);
  });

  it("a lab's manager manages only that lab: another lab of the organization is 403, like for any member", async () => {
    const before = await roles();
    expectError(await setRole(h, f.manager.token, h.a.migratedLab.id, h.a.member.id, 'manager'), 403, 'forbidden');
    expectError(await addMember(h, f.manager.token, h.a.otherLab.id, f.manager.id, 'manager'), 403, 'forbidden');
    expect(await roles()).toEqual(before);
  });

  it('401 without a token', async () => {
    expectError(await setRole(h, null as unknown as string, f.lab.id, f.plain.id, 'manager'), 401, 'unauthorized');
  });
});
