import { describe, expect, it } from 'vitest';
import { setRule, useApprovalFixture } from '../../helpers/approvals.js';

// GET/PUT /labs/{id}/approval-settings (docs/ordering.md).

const { h, f } = useApprovalFixture();

const get = (token: string, labId = f.lab.id) => h.call(token, { method: 'GET', url: `/labs/${labId}/approval-settings` });

describe('lab approval settings', () => {
  it('a lab without a rule reads none, with each caller their own role (org admins act as managers)', async () => {
    const roles: [string, string | null][] = [
      [f.requester.token, 'member'],
      [f.plain.token, 'member'],
      [f.approver.token, 'approver'],
      [f.manager.token, 'manager'],
      [f.admin.token, 'manager'],
    ];
    for (const [token, role] of roles) {
      const res = await get(token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ lab_id: f.lab.id, rule: 'none', threshold: null, my_role: role });
    }
    // The org admin sees a lab they do not belong to, where they still act as a manager.
    expect((await get(f.admin.token, h.a.otherLab.id)).json()).toEqual({
      lab_id: h.a.otherLab.id,
      rule: 'none',
      threshold: null,
      my_role: 'manager',
    });
  });

  it('an org admin sets all; a manager sets above with a threshold in major or minor units, read back in minor units', async () => {
    expect(await setRule(h, f.admin.token, f.lab.id, { rule: 'all' })).toEqual({
      lab_id: f.lab.id,
      rule: 'all',
      threshold: null,
      my_role: 'manager',
    });
    expect((await get(f.requester.token)).json().rule).toBe('all');
    const above = await setRule(h, f.manager.token, f.lab.id, { rule: 'above', threshold: { amount: '250.00', currency: 'USD' } });
    expect(above).toEqual({ lab_id: f.lab.id, rule: 'above', threshold: { amount: '25000', currency: 'USD' }, my_role: 'manager' });
    const minor = await setRule(h, f.manager.token, f.lab.id, { rule: 'above', threshold: { amount: '5000', currency: 'JPY' } });
    expect(minor.threshold).toEqual({ amount: '5000', currency: 'JPY' });
    expect((await get(f.approver.token)).json()).toEqual({ ...minor, my_role: 'approver' });
  });

  it('back to none, with or without a null threshold: the threshold is forgotten', async () => {
    expect((await setRule(h, f.admin.token, f.lab.id, { rule: 'none', threshold: null })).threshold).toBeNull();
    expect((await get(f.requester.token)).json()).toEqual({ lab_id: f.lab.id, rule: 'none', threshold: null, my_role: 'member' });
  });
});
