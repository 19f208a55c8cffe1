import { describe, expect, it } from 'vitest';
import { h, placeOne, shop, useShop } from './_setup.js';

// An operator's retried POST with the same Idempotency-Key is answered with the first response, as a tenant's is
// (src/server/idempotency.ts): a retried shipment is never recorded twice.

describe('Idempotency-Key on operator tokens', () => {
  useShop();

  const countShipments = async (lineId: string) =>
    Number(
      (
        await h.deps.db
          .selectFrom('shipments')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('sales_order_item_id', '=', lineId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('a retried shipment is replayed, not shipped twice; another body with the key is 422', async () => {
    const { line } = await placeOne(h, h.a.member.token, h.a.migratedLab, shop.products.M0530S!, 5);
    const ship = (quantity: number) =>
      h.call(shop.operator.token, {
        method: 'POST',
        url: `/shop/order-items/${line.id}/shipments`,
        payload: { carrier: 'UPS', tracking: '1Z999', quantity },
        headers: { 'idempotency-key': `ship-${line.id}` },
      });
    const first = await ship(2);
    expect(first.statusCode, first.body).toBe(201);
    const retry = await ship(2);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await countShipments(line.id)).toBe(1);
    const other = await ship(3);
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json().code).toBe('idempotency_key_reused');
    expect(await countShipments(line.id)).toBe(1);
  });
});
