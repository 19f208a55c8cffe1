import { describe, expect, it } from 'vitest';
import { putRule, setRule, useApprovalFixture } from '../../helpers/approvals.js';
import { expectError } from '../../helpers/errors.js';

// Another organization's lab, and a lab of one's own organization one does not belong to, look like no lab at all.

const { h, f } = useApprovalFixture(async (h, f) => {
  await setRule(h, f.admin.token, f.lab.id, { rule: 'all' });
});

const rows = () => h.deps.db.selectFrom('lab_approval_rules').selectAll().orderBy('lab_id').execute();

describe('approval settings: security', () => {
  it("org B's admin gets 404 for org A's lab, reading or writing, and changes nothing", async () => {
    const before = await rows();
    expectError(await h.call(f.stranger.token, { method: 'GET', url: `/labs/${f.lab.id}/approval-settings` }), 404, 'not_found');
    expectError(await putRule(h, f.stranger.token, f.lab.id, { rule: 'none' }), 404, 'not_found');
    expect(await rows()).toEqual(before);
  });

  it('a member of the organization outside the lab gets 404; a lab manager elsewhere has no say here', async () => {
    expectError(await h.call(h.a.outsider.token, { method: 'GET', url: `/labs/${f.lab.id}/approval-settings` }), 404, 'not_found');
    expectError(await putRule(h, h.a.outsider.token, f.lab.id, { rule: 'none' }), 404, 'not_found');
    // The lab's manager is nobody in org A's other lab: not visible to them.
    expectError(await putRule(h, f.manager.token, h.a.otherLab.id, { rule: 'all' }), 404, 'not_found');
  });

  it('401 without a token', async () => {
    expectError(await h.call(null, { method: 'GET', url: `/labs/${f.lab.id}/approval-settings` }), 401, 'unauthorized');
    expectError(await putRule(h, null as unknown as string, f.lab.id, { rule: 'none' }), 401, 'unauthorized');
  });
});
