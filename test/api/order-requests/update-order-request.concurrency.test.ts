// Identical status changes racing each other (issue 9, item 12). A PUT that finds the status already set answers
// 200 and changes nothing (docs/product.md §4), so twenty identical PUTs answer 200 to all of them, with one history row
// and one event, whoever gets there first. On PostgreSQL some callers got 409 (they read the old status, then
// lost the conditional update). The same holds for the receive endpoint and the shop's checkout, whose losers
// get the answer a sequential caller would get. Also run on SQLite, where writers are serial.
import { describe, expect, it } from 'vitest';
import { importCatalogue } from '../../../src/catalogue/service.js';
import { systemActor } from '../../../src/shared/actor.js';
import { CATALOGUE } from '../../helpers/shop.js';
import { useHarness } from '../../helpers/use-harness.js';
import { createOrder, historyRows, itemEvents, orderBody, orderEvents, orderIn, orderRow, putStatus, type Status } from './_helpers.js';

const h = useHarness();

const N = 20;
const codes = (rs: { statusCode: number; body: string }[]) => rs.map((r) => r.statusCode);
/** The answers worth reading when a race goes wrong: every one that is not a success. */
const bodies = (rs: { statusCode: number; body: string }[]) =>
  rs
    .filter((r) => r.statusCode >= 300)
    .map((r) => r.body)
    .join('\n');

describe('concurrent identical PUT /order-requests/{id}', () => {
  const cases: [Status, Status][] = [
    ['CREATED', 'APPROVED'],
    ['CREATED', 'ORDERED'],
    ['ORDERED', 'RECEIVED'],
    ['ORDERED', 'CANCELLED'],
  ];
  it.each(cases)(`%s -> %s, ${N} callers at once: all 200, one change, one history row`, async (from, to) => {
    for (let round = 0; round < 3; round++) {
      const start = await orderIn(h, h.a.admin.token, h.a.legacyLab, from);
      const historyBefore = (await historyRows(h, start.id)).length;
      const rs = await Promise.all(Array.from({ length: N }, () => putStatus(h, h.a.member.token, start.id, to)));
      expect(codes(rs), bodies(rs)).toEqual(Array(N).fill(200));
      for (const r of rs) expect(r.json().status).toBe(to);
      expect((await orderRow(h, start.id))!.status).toBe(to);
      const history = await historyRows(h, start.id);
      expect(history.map((x) => x.type).slice(historyBefore)).toEqual([to]);
      if (to === 'ORDERED') expect(await orderEvents(h, 'ordered', start.id)).toHaveLength(1);
      if (to === 'RECEIVED') {
        const received = await orderEvents(h, 'received', start.id);
        expect(received).toHaveLength(1);
        // The goods went into inventory once.
        const items = await h.deps.db
          .selectFrom('inventory_items')
          .select(['id', 'quantity'])
          .where('lab_id', '=', h.a.legacyLab.id)
          .where('catalog_number', '=', start.catalog_number)
          .execute();
        expect(items).toHaveLength(1);
        expect(items[0]!.quantity).toBe('2');
        expect(await itemEvents(h, 'created', items[0]!.id)).toHaveLength(1);
      }
    }
  });
});

describe('concurrent receive and checkout', () => {
  it('POST /order-requests/{id}/receive at once: one 200, the rest 409 invalid_transition as a later caller gets', async () => {
    for (let round = 0; round < 3; round++) {
      const start = await orderIn(h, h.a.admin.token, h.a.migratedLab, 'ORDERED');
      const rs = await Promise.all(
        Array.from({ length: 8 }, () =>
          h.call(h.a.member.token, { method: 'POST', url: `/order-requests/${start.id}/receive`, payload: { lot_number: 'L1' } }),
        ),
      );
      expect(codes(rs).sort(), bodies(rs)).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
      for (const r of rs.filter((x) => x.statusCode === 409)) expect(r.json().code, r.body).toBe('invalid_transition');
      expect(await orderEvents(h, 'received', start.id)).toHaveLength(1);
      const instances = await h.deps.db
        .selectFrom('inventory_item_instances')
        .innerJoin('inventory_items', 'inventory_items.id', 'inventory_item_instances.item_id')
        .select('inventory_item_instances.id')
        .where('inventory_items.catalog_number', '=', start.catalog_number)
        .execute();
      expect(instances).toHaveLength(1);
    }
  });

  it('receive and DELETE at once: never both (a received request is never deleted)', async () => {
    for (let round = 0; round < 5; round++) {
      const start = await orderIn(h, h.a.admin.token, h.a.legacyLab, 'ORDERED');
      const [received, deleted] = await Promise.all([
        putStatus(h, h.a.admin.token, start.id, 'RECEIVED'),
        h.call(h.a.admin.token, { method: 'DELETE', url: `/order-requests/${start.id}` }),
      ]);
      const outcome = [received.statusCode, deleted.statusCode];
      expect(
        [
          [200, 409],
          [404, 204],
        ],
        `${received.body}\n${deleted.body}`,
      ).toContainEqual(outcome);
      const row = await orderRow(h, start.id);
      expect(row?.status).toBe(outcome[0] === 200 ? 'RECEIVED' : undefined);
    }
  });

  it('checking out one request in several shop orders at once: one 201, the rest 409 naming its status', async () => {
    await importCatalogue(h.deps, systemActor('cli'), CATALOGUE.slice(0, 1));
    const productId = (await h.deps.db.selectFrom('vendor_products').select('id').executeTakeFirstOrThrow()).id;
    for (let round = 0; round < 3; round++) {
      const request = await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab, { vendor_product_id: productId }));
      const rs = await Promise.all(
        Array.from({ length: 6 }, () =>
          h.call(h.a.member.token, {
            method: 'POST',
            url: '/shop/orders',
            payload: {
              lab_id: h.a.legacyLab.id,
              order_request_ids: [request.id],
              payment_method: 'PURCHASE_ORDER',
              purchase_order_number: 'PO-1',
            },
          }),
        ),
      );
      expect(codes(rs).sort(), bodies(rs)).toEqual([201, 409, 409, 409, 409, 409]);
      for (const r of rs.filter((x) => x.statusCode === 409)) expect(r.json().message, r.body).toMatch(/is ORDERED/);
      expect(await orderEvents(h, 'ordered', request.id)).toHaveLength(1);
      const lines = await h.deps.db.selectFrom('sales_order_items').select('id').where('order_request_id', '=', request.id).execute();
      expect(lines).toHaveLength(1);
    }
  });
});
