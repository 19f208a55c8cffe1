// The order-request API tests' helpers (no tests in here); those other folders use too are in test/helpers/.
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { eventsOfType, type StoredEvent } from '../../helpers/events.js';
import type { Harness } from '../../helpers/harness.js';
import { type CreateBody, createOrder, orderBody } from '../../helpers/orders.js';

export { expectNotFound, expectValidationError } from '../../helpers/errors.js';
export { eventsOfType, expectEnvelope, type StoredEvent } from '../../helpers/events.js';
export { type CreateBody, createOrder, orderBody } from '../../helpers/orders.js';
export { DATETIME_RE, MISSING_ID, parseLink, UUID_RE } from '../../helpers/shapes.js';

export type Status = 'CREATED' | 'CANCELLED' | 'APPROVED' | 'ORDERED' | 'BACKORDERED' | 'RECEIVED';
export const STATUSES: Status[] = ['CREATED', 'CANCELLED', 'APPROVED', 'ORDERED', 'BACKORDERED', 'RECEIVED'];

/** docs/product.md §4, written out independently of src/order-requests/rules.ts. */
export const TRANSITIONS: Record<Status, Status[]> = {
  CREATED: ['APPROVED', 'ORDERED', 'CANCELLED'],
  APPROVED: ['ORDERED', 'CANCELLED'],
  ORDERED: ['BACKORDERED', 'RECEIVED', 'CANCELLED'],
  BACKORDERED: ['ORDERED', 'RECEIVED', 'CANCELLED'],
  CANCELLED: ['CREATED'],
  RECEIVED: [],
};

/** Status changes that bring a fresh (CREATED) request into each status. */
export const PATH_TO: Record<Status, Status[]> = {
  CREATED: [],
  APPROVED: ['APPROVED'],
  ORDERED: ['ORDERED'],
  BACKORDERED: ['ORDERED', 'BACKORDERED'],
  CANCELLED: ['CANCELLED'],
  RECEIVED: ['ORDERED', 'RECEIVED'],
};

/** Every field of the contract's Order request, plus app_url (docs/product.md §1). */
export const ORDER_FIELDS = [
  'id',
  'status',
  'vendor_name',
  'catalog_number',
  'quantity',
  'unit_size',
  'unit_price',
  'total_price',
  'requested_at',
  'updated_at',
  'requested_by',
  'created_by',
  'notes',
  'item_name',
  'invoice_number',
  'requisition_number',
  'confirmation_number',
  'tracking_number',
  'purchase_order_number',
  'shipping_and_handling',
  'details',
  'lab',
  'type',
  'spend_tracking_code',
  'backordered_expected_at',
  'is_urgent',
  'app_url',
].sort();

export const putStatus = (h: Harness, token: string | null, id: string, status: string): Promise<LightMyRequestResponse> =>
  h.call(token, { method: 'PUT', url: `/order-requests/${id}`, payload: { status } });

/** Walks a request through statuses, failing the test on any non-200. Returns the last response body. */
export async function moveThrough(h: Harness, token: string, id: string, statuses: Status[]): Promise<any> {
  let last: any;
  for (const s of statuses) {
    const res = await putStatus(h, token, id, s);
    expect(res.statusCode, `${s}: ${res.body}`).toBe(200);
    last = res.json();
  }
  return last;
}

/** A new request in the given status. */
export async function orderIn(
  h: Harness,
  token: string,
  lab: { id: string; typeId: string },
  status: Status,
  overrides: Partial<CreateBody> = {},
): Promise<any> {
  const created = await createOrder(h, token, orderBody(lab, overrides));
  if (PATH_TO[status].length === 0) return created;
  return moveThrough(h, token, created.id, PATH_TO[status]);
}

export async function counts(h: Harness): Promise<{ orders: number; events: number; history: number; items: number }> {
  const n = async (table: 'order_requests' | 'events' | 'order_request_events' | 'inventory_items') => {
    const r = await h.deps.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  };
  return {
    orders: await n('order_requests'),
    events: await n('events'),
    history: await n('order_request_events'),
    items: await n('inventory_items'),
  };
}

/** Order-request events (of one kind) about one request. */
export async function orderEvents(
  h: Harness,
  kind: 'created' | 'ordered' | 'received' | 'deleted',
  orderId: string,
): Promise<StoredEvent[]> {
  return (await eventsOfType(h, `com.labstock.order-request.${kind}`)).filter((e) => e.event.data?.order_request?.id === orderId);
}

/** Inventory-item events (of one kind) about one item. */
export async function itemEvents(h: Harness, kind: 'created' | 'updated' | 'deleted', itemId: string): Promise<StoredEvent[]> {
  return (await eventsOfType(h, `com.labstock.inventory-item.${kind}`)).filter((e) => e.event.data?.inventory_item?.id === itemId);
}

export async function historyRows(h: Harness, orderId: string) {
  return h.deps.db
    .selectFrom('order_request_events')
    .selectAll()
    .where('order_request_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The lab's items of one vendor and catalog number: what receiving an order request finds or creates. */
export const itemsWith = (h: Harness, labId: string, vendor: string, catalogNumber: string) =>
  h.deps.db
    .selectFrom('inventory_items')
    .selectAll()
    .where('lab_id', '=', labId)
    .where('vendor', '=', vendor)
    .where('catalog_number', '=', catalogNumber)
    .execute();

export async function orderRow(h: Harness, orderId: string) {
  return h.deps.db.selectFrom('order_requests').selectAll().where('id', '=', orderId).executeTakeFirst();
}

/** The token owner's user summary as GET /user returns it. */
export async function userOf(h: Harness, token: string): Promise<any> {
  const res = await h.call(token, { method: 'GET', url: '/user' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/**
 * Installs a real database trigger that makes a write fail (BEFORE INSERT/UPDATE on `table` when `condition`, an SQL
 * expression over NEW that both databases understand, holds). Used to prove that a change and its side effects
 * (history, events, inventory) commit or roll back together, without mocking anything.
 */
export async function failWritesWhen(
  h: Harness,
  name: string,
  table: 'inventory_items' | 'events' | 'order_request_events',
  op: 'INSERT' | 'UPDATE',
  condition: string,
): Promise<void> {
  if (h.database.handle.kind === 'sqlite') {
    await sql
      .raw(`CREATE TRIGGER ${name} BEFORE ${op} ON ${table} WHEN ${condition} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`)
      .execute(h.deps.db);
    return;
  }
  await sql
    .raw(`CREATE FUNCTION ${name}_fn() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF ${condition} THEN RAISE EXCEPTION 'injected failure'; END IF;
      RETURN NEW;
    END $$`)
    .execute(h.deps.db);
  await sql.raw(`CREATE TRIGGER ${name} BEFORE ${op} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}_fn()`).execute(h.deps.db);
}
