import { describe, expect, it } from 'vitest';
import { requestFor, setRule, useApprovalFixture } from '../../helpers/approvals.js';

// Another organization's admin, and an approver of one lab, see nothing of another lab's queue.

const { h, f } = useApprovalFixture(async (h, f) => {
  await setRule(h, f.admin.token, f.lab.id, { rule: 'all' });
  await requestFor(h, f.requester.token, f.lab);
});

const ids = async (token: string, query = '') => {
  const res = await h.call(token, { method: 'GET', url: `/order-requests/awaiting-approval${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().map((o: any) => o.id);
};

describe('the approval queue: security', () => {
  it("org B's admin sees none of org A's waiting requests, even naming the lab", async () => {
    expect(await ids(f.admin.token)).toHaveLength(1);
    expect(await ids(f.stranger.token)).toEqual([]);
    expect(await ids(f.stranger.token, `?lab_id=${f.lab.id}`)).toEqual([]);
  });

  it("an approver of one lab sees nothing of another lab's requests", async () => {
    const other = { id: h.a.migratedLab.id, typeId: h.a.migratedLab.typeId };
    await setRule(h, f.admin.token, other.id, { rule: 'all' });
    const r = await requestFor(h, f.requester.token, other);
    expect(await ids(f.approver.token)).not.toContain(r.id);
    expect(await ids(f.approver.token, `?lab_id=${other.id}`)).toEqual([]);
    expect(await ids(f.admin.token)).toContain(r.id);
  });
});
