import { describe, expect, it } from 'vitest';
import { putStatus, requestFor, setRule, useApprovalFixture } from '../../helpers/approvals.js';

// GET /order-requests/awaiting-approval (docs/ordering.md): the approver's queue.

let small: any;
let big: any;
let bigByApprover: any;
const { h, f } = useApprovalFixture(async (h, f) => {
  // Made while the lab has no rule: the queue applies the rule in force.
  small = await requestFor(h, f.requester.token, f.lab, '10.00', 1);
  big = await requestFor(h, f.requester.token, f.lab, '300.00', 1);
  bigByApprover = await requestFor(h, f.approver.token, f.lab, '400.00', 1);
  await setRule(h, f.admin.token, f.lab.id, { rule: 'above', threshold: { amount: '100.00', currency: 'USD' } });
});

const queue = async (token: string, query = '') => {
  const res = await h.call(token, { method: 'GET', url: `/order-requests/awaiting-approval${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res;
};
const ids = async (token: string, query = '') => (await queue(token, query)).json().map((o: any) => o.id);

describe('the approval queue', () => {
  it('an approver sees the requests above the threshold, not their own nor those below it; full order requests', async () => {
    expect(await ids(f.approver.token)).toEqual([big.id]);
    const [one] = (await queue(f.approver.token)).json();
    expect(one).toEqual((await h.call(f.approver.token, { method: 'GET', url: `/order-requests/${big.id}` })).json());
  });

  it('a manager and an org admin see every request waiting, oldest first; the requester and a plain member see none', async () => {
    expect(await ids(f.manager.token)).toEqual([big.id, bigByApprover.id]);
    expect(await ids(f.admin.token)).toEqual([big.id, bigByApprover.id]);
    expect(await ids(f.requester.token)).toEqual([]);
    expect(await ids(f.plain.token)).toEqual([]);
    expect(small.id).toBeDefined();
  });

  it('pages with the usual headers and filters by lab_id', async () => {
    const res = await queue(f.manager.token, '?per_page=1&page=2');
    expect(res.json().map((o: any) => o.id)).toEqual([bigByApprover.id]);
    expect(res.headers['x-total-count']).toBe('2');
    expect(String(res.headers.link)).toContain('rel="prev"');
    expect(await ids(f.manager.token, `?lab_id=${f.lab.id}`)).toEqual([big.id, bigByApprover.id]);
    expect(await ids(f.manager.token, `?lab_id=${h.a.migratedLab.id}`)).toEqual([]);
  });

  it('a request leaves the queue once approved (or cancelled); with rule none the queue is empty', async () => {
    expect((await putStatus(h, f.approver.token, big.id, 'APPROVED')).statusCode).toBe(200);
    expect(await ids(f.manager.token)).toEqual([bigByApprover.id]);
    await setRule(h, f.admin.token, f.lab.id, { rule: 'all' });
    expect(await ids(f.manager.token)).toEqual([small.id, bigByApprover.id]);
    await setRule(h, f.admin.token, f.lab.id, { rule: 'none' });
    expect(await ids(f.manager.token)).toEqual([]);
  });
});
