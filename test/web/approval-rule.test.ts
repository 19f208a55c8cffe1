import { describe, expect, it } from 'vitest';
import { checkApprover, needsApproval as serverNeedsApproval } from '../../src/order-requests/rules.js';
import { type ApprovalSettings, mayApprove, needsApproval } from '../../web/src/orders.js';

// The request page holds back "Mark ordered" and offers "Approve" as the server decides (web/src/orders.ts mirrors
// src/order-requests/rules.ts; the browser bundle must not import server code). The server answers the threshold and
// the total in minor units (docs/ordering.md) and keeps the threshold in major units: USD, two decimals, here.
const minor = (major: string) => String(Math.round(Number(major) * 100));

describe("the web application's approval rule", () => {
  it('asks for approval exactly when the server does', () => {
    const orders = [
      { unit_price: '12.50', quantity: 20, currency: 'USD' }, // 250.00: the threshold itself
      { unit_price: '12.50', quantity: 21, currency: 'USD' },
      { unit_price: '250.01', quantity: 1, currency: 'USD' },
      { unit_price: '0.01', quantity: 1, currency: 'USD' },
      { unit_price: '1.00', quantity: 1, currency: 'EUR' },
    ];
    const rules = [
      { rule: 'none', threshold_amount: null, threshold_currency: null },
      { rule: 'all', threshold_amount: null, threshold_currency: null },
      { rule: 'above', threshold_amount: '250.00', threshold_currency: 'USD' },
    ] as const;
    let asked = 0;
    for (const rule of rules)
      for (const order of orders) {
        const settings: ApprovalSettings = {
          rule: rule.rule,
          threshold: rule.threshold_amount ? { amount: minor(rule.threshold_amount), currency: rule.threshold_currency! } : null,
          my_role: null,
        };
        const total = { amount: minor(String(Number(order.unit_price) * order.quantity)), currency: order.currency };
        const server = serverNeedsApproval(rule, order);
        if (server) asked += 1;
        expect(needsApproval(settings, total), `${rule.rule} ${order.unit_price}×${order.quantity} ${order.currency}`).toBe(server);
      }
    expect(asked).toBe(5 + 3); // all: every order; above: 21×12.50, 250.01 and the EUR one
  });

  it('offers Approve to whom the server lets approve', () => {
    for (const role of ['member', 'approver', 'manager', null] as const)
      for (const self of [true, false]) {
        const settings: ApprovalSettings = { rule: 'all', threshold: null, my_role: role };
        // An org admin is answered my_role "manager" (docs/ordering.md), which the server reaches through orgAdmin.
        const server = checkApprover({ userId: 'me', orgAdmin: false, labRole: role }, self ? 'me' : 'them') === 'allowed';
        expect(mayApprove(settings, 'me', self ? 'me' : 'them'), `${role} ${self ? 'own' : 'other'}`).toBe(server);
      }
  });
});
