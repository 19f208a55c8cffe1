// Put-away tests' helpers (docs/api.md "Put-away"): goods received through the API into a lab that uses instances.
import { expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { createOrder, orderBody } from '../../helpers/orders.js';

/** An order request of the lab, ORDERED, then received (with what `receive` gives); the item it went into. */
export async function receive(h: Harness, token: string, lab: { id: string; typeId: string }, receive: Record<string, unknown> = {}) {
  const order = await createOrder(h, token, orderBody(lab));
  const ordered = await h.call(token, { method: 'PUT', url: `/order-requests/${order.id}`, payload: { status: 'ORDERED' } });
  expect(ordered.statusCode, ordered.body).toBe(200);
  const res = await h.call(token, { method: 'POST', url: `/order-requests/${order.id}/receive`, payload: receive });
  expect(res.statusCode, res.body).toBe(200);
  const item = await h.deps.db
    .selectFrom('inventory_items')
    .select(['id'])
    .where('lab_id', '=', lab.id)
    .where('catalog_number', '=', order.catalog_number)
    .executeTakeFirstOrThrow();
  const instance = await h.deps.db
    .selectFrom('inventory_item_instances')
    .select(['id'])
    .where('item_id', '=', item.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return { itemId: item.id, instanceId: instance.id, order };
}

export const listLab = (h: Harness, token: string | null, labId: string, query = '') =>
  h.call(token, { method: 'GET', url: `/labs/${labId}/put-away${query}` });

export const putAway = (h: Harness, token: string | null, itemId: string, instanceId: string, payload: unknown, headers = {}) =>
  h.call(token, {
    method: 'POST',
    url: `/inventory-items/${itemId}/instances/${instanceId}/put-away`,
    payload: payload as any,
    headers,
  });

/** The instance ids a list answer holds. */
export const idsOf = (res: { json(): any }): string[] => res.json().map((r: any) => r.instance_id);
