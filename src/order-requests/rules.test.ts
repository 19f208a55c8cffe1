import { describe, expect, it } from 'vitest';
import { type ApprovalRule, checkApprover, checkTransition, emitsOrdered, needsApproval, TRANSITIONS } from './rules.js';
import { ORDER_STATUSES } from './schemas.js';

describe('order request transitions', () => {
  it('follows the table for every pair of statuses', () => {
    const allowed = new Set(Object.entries(TRANSITIONS).flatMap(([from, tos]) => tos.map((to) => `${from}>${to}`)));
    expect(allowed.size).toBe(12);
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        const result = checkTransition(from, to);
        if (from === to) expect(result.kind).toBe('same');
        else expect(result.kind).toBe(allowed.has(`${from}>${to}`) ? 'allowed' : 'refused');
      }
    }
  });

  it('names the allowed targets when refusing', () => {
    expect(checkTransition('CREATED', 'RECEIVED')).toEqual({ kind: 'refused', allowed: ['APPROVED', 'ORDERED', 'CANCELLED'] });
    expect(checkTransition('RECEIVED', 'CANCELLED')).toEqual({ kind: 'refused', allowed: [] });
  });

  it('emits ordered only on the first ordering', () => {
    expect(emitsOrdered('CREATED', 'ORDERED')).toBe(true);
    expect(emitsOrdered('APPROVED', 'ORDERED')).toBe(true);
    expect(emitsOrdered('BACKORDERED', 'ORDERED')).toBe(false);
  });
});

describe('approval rules', () => {
  const order = (unit_price: string, quantity: string, currency = 'USD') => ({ unit_price, quantity, currency });
  const above = (amount: string, currency = 'USD'): ApprovalRule => ({
    rule: 'above',
    threshold_amount: amount,
    threshold_currency: currency,
  });

  it('needs no approval without a rule or with none, and always with all', () => {
    expect(needsApproval(undefined, order('1000000.00', '10'))).toBe(false);
    expect(needsApproval({ rule: 'none', threshold_amount: null, threshold_currency: null }, order('1000000.00', '10'))).toBe(false);
    expect(needsApproval({ rule: 'all', threshold_amount: null, threshold_currency: null }, order('0.00', '1'))).toBe(true);
  });

  it('compares the total, strictly, with the threshold of above', () => {
    expect(needsApproval(above('100.00'), order('50.00', '2'))).toBe(false);
    expect(needsApproval(above('100.00'), order('50.01', '2'))).toBe(true);
    expect(needsApproval(above('100.00'), order('100.00', '1'))).toBe(false);
    expect(needsApproval(above('100.00'), order('0.10', '1001'))).toBe(true);
    expect(needsApproval(above('0.30'), order('0.10', '3'))).toBe(false);
  });

  it('needs approval when the currency differs from the threshold', () => {
    expect(needsApproval(above('100.00', 'EUR'), order('1.00', '1', 'USD'))).toBe(true);
  });

  it('lets approvers, managers and org admins approve, never the requester', () => {
    expect(checkApprover({ userId: 'u', orgAdmin: false, labRole: 'approver' }, 'r')).toBe('allowed');
    expect(checkApprover({ userId: 'u', orgAdmin: false, labRole: 'manager' }, 'r')).toBe('allowed');
    expect(checkApprover({ userId: 'u', orgAdmin: true, labRole: null }, 'r')).toBe('allowed');
    expect(checkApprover({ userId: 'u', orgAdmin: false, labRole: 'member' }, 'r')).toBe('not_an_approver');
    expect(checkApprover({ userId: 'u', orgAdmin: false, labRole: null }, 'r')).toBe('not_an_approver');
    expect(checkApprover({ userId: 'r', orgAdmin: true, labRole: 'manager' }, 'r')).toBe('self');
  });
});
