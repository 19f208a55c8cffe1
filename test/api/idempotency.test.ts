import { describe, expect, it } from 'vitest';
import { useHarness } from '../helpers/use-harness.js';

const h = useHarness();

const body = () => ({
  lab_id: h.a.legacyLab.id,
  type_id: h.a.legacyLab.typeId,
  name: 'Pipette tips',
  vendor_name: 'Eppendorf',
  catalog_number: '0030073061',
  price: { amount: '5900', currency: 'EUR' },
  quantity: 3,
});
const countOrders = async () =>
  Number(
    (
      await h.deps.db
        .selectFrom('order_requests')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('Idempotency-Key on POST', () => {
  it('answers a retry with the first response and creates one request', async () => {
    const before = await countOrders();
    const first = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: body(),
      headers: { 'idempotency-key': 'retry-1' },
    });
    const second = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: body(),
      headers: { 'idempotency-key': 'retry-1' },
    });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(await countOrders()).toBe(before + 1);
  });

  it('refuses the same key with another body, changing nothing', async () => {
    await h.call(h.a.admin.token, { method: 'POST', url: '/order-requests', payload: body(), headers: { 'idempotency-key': 'retry-2' } });
    const before = await countOrders();
    const other = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: { ...body(), quantity: 4 },
      headers: { 'idempotency-key': 'retry-2' },
    });
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('idempotency_key_reused');
    expect(await countOrders()).toBe(before);
  });

  it('keeps keys per token: another token with the same key does its own work', async () => {
    const before = await countOrders();
    const a = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: body(),
      headers: { 'idempotency-key': 'shared' },
    });
    const b = await h.call(h.a.member.token, {
      method: 'POST',
      url: '/order-requests',
      payload: body(),
      headers: { 'idempotency-key': 'shared' },
    });
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.json().id).not.toBe(a.json().id);
    expect(await countOrders()).toBe(before + 2);
  });

  it('does not store failures, so a corrected retry can succeed', async () => {
    const bad = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: { ...body(), lab_id: h.b.legacyLab.id },
      headers: { 'idempotency-key': 'fail-then-ok' },
    });
    expect(bad.statusCode).toBe(404);
    const again = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: { ...body(), lab_id: h.b.legacyLab.id },
      headers: { 'idempotency-key': 'fail-then-ok' },
    });
    expect(again.statusCode).toBe(404);
  });

  it('rejects a malformed key', async () => {
    const r = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: body(),
      headers: { 'idempotency-key': 'x'.repeat(300) },
    });
    expect(r.statusCode).toBe(422);
    expect(r.json().errors[0].field).toBe('Idempotency-Key');
  });
});
