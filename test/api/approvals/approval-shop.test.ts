import { describe, expect, it } from 'vitest';
import { historyTypes, putStatus, setRule, useApprovalFixture } from '../../helpers/approvals.js';
import { expectError } from '../../helpers/errors.js';
import { checkoutRequests, type ShopFixture, setupShop, shopRequest } from '../../helpers/shop.js';

// The shop's checkout moves requests to ORDERED through the same guard as PUT /order-requests/{id}
// (src/order-requests/approval.ts): an unapproved request that needs approval is refused, and the whole checkout with it.

let shop: ShopFixture;
const { h, f } = useApprovalFixture(async (h, f) => {
  shop = await setupShop(h);
  // Shop requests are 10.00 USD × quantity (test/helpers/shop.ts): 2 is 20.00, 5 is 50.00.
  await setRule(h, f.admin.token, f.lab.id, { rule: 'above', threshold: { amount: '30.00', currency: 'USD' } });
});

const count = async (table: 'sales_orders' | 'sales_order_items' | 'events') =>
  (await h.deps.db.selectFrom(table).select('id').execute()).length;

describe('checkout and approvals', () => {
  it('refuses (409 approval_required) a checkout with an unapproved request that needs approval; nothing changes', async () => {
    const small = await shopRequest(h, f.requester.token, f.lab, shop.products.M0530S!, 2);
    const big = await shopRequest(h, f.requester.token, f.lab, shop.products.M0530S!, 5);
    const before = { orders: await count('sales_orders'), lines: await count('sales_order_items'), events: await count('events') };
    const res = await checkoutRequests(h, f.requester.token, f.lab.id, [small, big]);
    const body = expectError(res, 409, 'approval_required');
    expect(body.message).toContain(big);
    expect({ orders: await count('sales_orders'), lines: await count('sales_order_items'), events: await count('events') }).toEqual(before);
    for (const id of [small, big]) expect(await historyTypes(h, id)).toEqual(['CREATED']);
    const row = await h.deps.db.selectFrom('order_requests').select('checked_out_line_id').where('id', '=', big).executeTakeFirstOrThrow();
    expect(row.checked_out_line_id).toBeNull();
  });

  it('checks it out once an approver approved it; a request under the threshold goes through directly', async () => {
    const small = await shopRequest(h, f.requester.token, f.lab, shop.products.M0530S!, 2);
    const big = await shopRequest(h, f.requester.token, f.lab, shop.products.M0530S!, 5);
    expect((await putStatus(h, f.approver.token, big, 'APPROVED')).statusCode).toBe(200);
    const res = await checkoutRequests(h, f.requester.token, f.lab.id, [small, big]);
    expect(res.statusCode, res.body).toBe(201);
    // The moves of each request; the checkout also fills its details (an UPDATED entry, docs/ordering.md).
    const moves = async (id: string) => (await historyTypes(h, id)).filter((t) => t !== 'UPDATED');
    expect(await moves(big)).toEqual(['CREATED', 'APPROVED', 'ORDERED']);
    expect(await moves(small)).toEqual(['CREATED', 'ORDERED']);
    expect(await historyTypes(h, big)).toContain('UPDATED');
  });

  it('an org admin checking out is refused too: the rule is about the request', async () => {
    const big = await shopRequest(h, f.requester.token, f.lab, shop.products.M0530S!, 5);
    expectError(await checkoutRequests(h, f.admin.token, f.lab.id, [big]), 409, 'approval_required');
  });
});
