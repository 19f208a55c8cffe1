import { describe, expect, it } from 'vitest';
import { putRule, setRule, useApprovalFixture } from '../../helpers/approvals.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { MISSING_ID } from '../../helpers/shapes.js';

// PUT /labs/{id}/approval-settings refusals change nothing.

const { h, f } = useApprovalFixture(async (h, f) => {
  await setRule(h, f.admin.token, f.lab.id, { rule: 'above', threshold: { amount: '100.00', currency: 'USD' } });
});

const current = async () => (await h.call(f.admin.token, { method: 'GET', url: `/labs/${f.lab.id}/approval-settings` })).json();

describe('approval settings: errors', () => {
  it('422: a rule unknown, above without a threshold, a threshold with another rule, a bad currency or amount, unknown fields', async () => {
    const before = await current();
    const cases: [Record<string, unknown>, string][] = [
      [{ rule: 'some' }, 'rule'],
      [{}, 'rule'],
      [{ rule: 'above' }, 'threshold'],
      [{ rule: 'above', threshold: null }, 'threshold'],
      [{ rule: 'all', threshold: { amount: '1', currency: 'USD' } }, 'threshold'],
      [{ rule: 'above', threshold: { amount: '1', currency: 'XXZ' } }, 'threshold.currency'],
      [{ rule: 'above', threshold: { amount: '-5', currency: 'USD' } }, 'threshold.amount'],
      [{ rule: 'above', threshold: { amount: '1.005', currency: 'USD' } }, 'threshold.amount'],
      [{ rule: 'all', extra: true }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await putRule(h, f.admin.token, f.lab.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(res.json()), JSON.stringify(body)).toContain(field);
    }
    expectValidation(await putRule(h, f.admin.token, f.lab.id, { rule: 'above' }), 'threshold');
    expect(await current()).toEqual(before);
  });

  it('403: the requester, a plain member and an approver may read the rule but not set it', async () => {
    const before = await current();
    for (const who of [f.requester, f.plain, f.approver]) {
      expectError(await putRule(h, who.token, f.lab.id, { rule: 'none' }), 403, 'forbidden');
    }
    expect(await current()).toEqual(before);
  });

  it('404: a lab that does not exist; 422 a malformed id', async () => {
    expectError(await putRule(h, f.admin.token, MISSING_ID, { rule: 'all' }), 404, 'not_found');
    expectError(await h.call(f.admin.token, { method: 'GET', url: `/labs/${MISSING_ID}/approval-settings` }), 404, 'not_found');
    expectError(await h.call(f.admin.token, { method: 'GET', url: '/labs/not-an-id/approval-settings' }), 422, 'validation_failed');
  });
});
