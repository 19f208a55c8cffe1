// Migration 0008 (src/shared/db/migrations/0008_order_request_checked_out.ts) on a database as the previous
// version left it: requests checked out before it get their line as the marker, the others none, and order
// requests then refuse a lab's change of a checked-out request from their own row, as before
// (docs/decisions/0008-shop-and-order-requests.md).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { up } from '../../../src/shared/db/migrations/0008_order_request_checked_out.js';
import { h, placeOne, shop, shopRequest, useShop } from './_setup.js';

useShop();

describe('0008_order_request_checked_out', () => {
  it("backfills the marker from the shop's lines; checked-out requests stay the shop's, the others the lab's", async () => {
    const lab = { id: h.a.legacyLab.id, typeId: h.a.legacyLab.typeId };
    const { line, requestId } = await placeOne(h, h.a.member.token, lab, shop.products.A9539!);
    const open = await shopRequest(h, h.a.member.token, lab, shop.products.A9539!);
    const marker = (id: string) =>
      h.deps.db.selectFrom('order_requests').select('checked_out_line_id').where('id', '=', id).executeTakeFirstOrThrow();
    expect(await marker(requestId)).toEqual({ checked_out_line_id: line.id });

    // Back to the schema before 0008: the lines exist, the requests carry no marker.
    await sql`alter table order_requests drop column checked_out_line_id`.execute(h.deps.db);
    await up(h.deps.db);

    expect(await marker(requestId)).toEqual({ checked_out_line_id: line.id });
    expect(await marker(open)).toEqual({ checked_out_line_id: null });
    const put = await h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${requestId}`, payload: { status: 'RECEIVED' } });
    expect(put.statusCode, put.body).toBe(409);
    expect((await h.call(h.a.admin.token, { method: 'DELETE', url: `/order-requests/${requestId}` })).statusCode).toBe(409);
    const approve = await h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${open}`, payload: { status: 'APPROVED' } });
    expect(approve.statusCode, approve.body).toBe(200);
  });
});
