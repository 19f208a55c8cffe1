import { describe, expect, it } from 'vitest';
import { addMember, setRole, useApprovalFixture } from '../../helpers/approvals.js';
import { expectError } from '../../helpers/errors.js';
import { MISSING_ID } from '../../helpers/shapes.js';

const { h, f } = useApprovalFixture();

const roles = () =>
  h.deps.db.selectFrom('lab_memberships').select(['lab_id', 'user_id', 'role']).orderBy('lab_id').orderBy('user_id').execute();

describe('lab member roles: errors', () => {
  it('422: an unknown role, on PUT and on adding; unknown fields', async () => {
    const before = await roles();
    expectError(await setRole(h, f.admin.token, f.lab.id, f.plain.id, 'owner'), 422, 'validation_failed');
    expectError(await addMember(h, f.admin.token, f.lab.id, f.plain.id, 'boss'), 422, 'validation_failed');
    const extra = await h.call(f.admin.token, {
      method: 'PUT',
      url: `/organization/labs/${f.lab.id}/members/${f.plain.id}`,
      payload: { role: 'approver', since: 'now' },
    });
    expectError(extra, 422, 'validation_failed');
    expect(await roles()).toEqual(before);
  });

  it('403: approvers and members set no roles, not even their own', async () => {
    const before = await roles();
    expectError(await setRole(h, f.approver.token, f.lab.id, f.approver.id, 'manager'), 403, 'forbidden');
    expectError(await setRole(h, f.plain.token, f.lab.id, f.plain.id, 'approver'), 403, 'forbidden');
    expectError(await setRole(h, f.requester.token, f.lab.id, f.plain.id, 'manager'), 403, 'forbidden');
    expectError(await addMember(h, f.approver.token, f.lab.id, h.a.outsider.id, 'manager'), 403, 'forbidden');
    expect(await roles()).toEqual(before);
  });

  it('404: someone who is not a member of the lab, an unknown user, an unknown lab', async () => {
    expectError(await setRole(h, f.admin.token, f.lab.id, h.a.outsider.id, 'approver'), 404, 'not_found');
    expectError(await setRole(h, f.admin.token, f.lab.id, MISSING_ID, 'approver'), 404, 'not_found');
    expectError(await setRole(h, f.admin.token, MISSING_ID, f.plain.id, 'approver'), 404, 'not_found');
  });
});
