// Shared helpers for the order-request and type API tests (no tests in here).
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';

export type Status = 'CREATED' | 'CANCELLED' | 'APPROVED' | 'ORDERED' | 'BACKORDERED' | 'RECEIVED';
export const STATUSES: Status[] = ['CREATED', 'CANCELLED', 'APPROVED', 'ORDERED', 'BACKORDERED', 'RECEIVED'];

/** PRODUCT.md §4, written out independently of src/order-requests/rules.ts. */
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

/** Every field of the contract's Order request, plus app_url (PRODUCT §1). */
export const ORDER_FIELDS = [
  'id', 'status', 'vendor_name', 'catalog_number', 'quantity', 'unit_size', 'unit_price', 'total_price', 'requested_at',
  'updated_at', 'requested_by', 'created_by', 'notes', 'item_name', 'invoice_number', 'requisition_number',
  'confirmation_number', 'tracking_number', 'purchase_order_number', 'shipping_and_handling', 'details', 'lab', 'type',
  'spend_tracking_code', 'backordered_expected_at', 'is_urgent', 'app_url',
].sort();

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const MISSING_ID = '0190a6f2-1111-7222-8333-444455556666';

export interface CreateBody {
  lab_id: string;
  type_id: string;
  name: string;
  vendor_name: string;
  catalog_number: string;
  price: { amount: string; currency: string };
  quantity: number;
  vendor_product_id?: string;
  required_before?: string;
  notes?: string;
}

let seq = 0;
/** A valid create body for a lab; vendor/catalog are unique unless overridden, so receiving makes a new item. */
export function orderBody(lab: { id: string; typeId: string }, overrides: Partial<CreateBody> = {}): CreateBody {
  seq += 1;
  return {
    lab_id: lab.id, type_id: lab.typeId, name: `Thing ${seq}`, vendor_name: `Vendor ${seq}`, catalog_number: `CAT-${seq}`,
    price: { amount: '1250', currency: 'USD' }, quantity: 2, ...overrides,
  };
}

export async function createOrder(h: Harness, token: string, body: CreateBody | Record<string, unknown>): Promise<any> {
  const res = await h.call(token, { method: 'POST', url: '/order-requests', payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

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
export async function orderIn(h: Harness, token: string, lab: { id: string; typeId: string }, status: Status, overrides: Partial<CreateBody> = {}): Promise<any> {
  const created = await createOrder(h, token, orderBody(lab, overrides));
  if (PATH_TO[status].length === 0) return created;
  return moveThrough(h, token, created.id, PATH_TO[status]);
}

export async function counts(h: Harness): Promise<{ orders: number; events: number; history: number; items: number }> {
  const n = async (table: 'order_requests' | 'events' | 'order_request_events' | 'inventory_items') => {
    const r = await h.deps.db.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  };
  return { orders: await n('order_requests'), events: await n('events'), history: await n('order_request_events'), items: await n('inventory_items') };
}

export interface StoredEvent {
  row: { id: string; type: string; organization_id: string; lab_id: string | null; created_at: string };
  event: any;
}

/** Outbox events of a full type (e.g. com.labstock.order-request.created), parsed, in insertion order. */
export async function eventsOfType(h: Harness, type: string): Promise<StoredEvent[]> {
  const rows = await h.deps.db.selectFrom('events').selectAll().where('type', '=', type).orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => ({ row: { id: r.id, type: r.type, organization_id: r.organization_id, lab_id: r.lab_id, created_at: r.created_at }, event: JSON.parse(r.payload) }));
}

/** Order-request events (of one kind) about one request. */
export async function orderEvents(h: Harness, kind: 'created' | 'ordered' | 'received' | 'deleted', orderId: string): Promise<StoredEvent[]> {
  return (await eventsOfType(h, `com.labstock.order-request.${kind}`)).filter((e) => e.event.data?.order_request?.id === orderId);
}

/** Inventory-item events (of one kind) about one item. */
export async function itemEvents(h: Harness, kind: 'created' | 'updated' | 'deleted', itemId: string): Promise<StoredEvent[]> {
  return (await eventsOfType(h, `com.labstock.inventory-item.${kind}`)).filter((e) => e.event.data?.inventory_item?.id === itemId);
}

export async function historyRows(h: Harness, orderId: string) {
  return h.deps.db.selectFrom('order_request_events').selectAll().where('order_request_id', '=', orderId).orderBy('created_at').orderBy('id').execute();
}

export async function orderRow(h: Harness, orderId: string) {
  return h.deps.db.selectFrom('order_requests').selectAll().where('id', '=', orderId).executeTakeFirst();
}

/** The token owner's user summary as GET /user returns it. */
export async function userOf(h: Harness, token: string): Promise<any> {
  const res = await h.call(token, { method: 'GET', url: '/user' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Checks the CloudEvents envelope (PRODUCT §7) of an outbox event. */
export function expectEnvelope(e: StoredEvent, type: string, dataKey: string): void {
  expect(e.event.specversion).toBe('1.0');
  expect(e.event.id).toMatch(UUID_RE);
  expect(e.event.id).toBe(e.row.id);
  expect(e.event.source).toBe('https://labstock.test');
  expect(e.event.type).toBe(type);
  expect(e.event.datacontenttype).toBe('application/json');
  expect(e.event.time).toMatch(DATETIME_RE);
  expect(Object.keys(e.event.data)).toEqual([dataKey]);
}

/** Parses an RFC 8288 Link header into rel -> URL. */
export function parseLink(header: string | string[] | number | undefined): Record<string, URL> {
  const out: Record<string, URL> = {};
  for (const part of String(header ?? '').split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part.trim());
    if (m) out[m[2]!] = new URL(m[1]!);
  }
  return out;
}

export function expectValidationError(res: LightMyRequestResponse, field: string): void {
  expect(res.statusCode, res.body).toBe(422);
  const body = res.json();
  expect(body.code).toBe('validation_failed');
  expect(typeof body.message).toBe('string');
  expect(body.message).toContain(field);
  expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
}

export function expectNotFound(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBe(404);
  const body = res.json();
  expect(body.code).toBe('not_found');
  expect(typeof body.message).toBe('string');
}

/**
 * Installs a real database trigger that makes a write fail (BEFORE INSERT/UPDATE on `table` when `condition`, an SQL
 * expression over NEW that both databases understand, holds). Used to prove that a change and its side effects
 * (history, events, inventory) commit or roll back together, without mocking anything.
 */
export async function failWritesWhen(h: Harness, name: string, table: 'inventory_items' | 'events' | 'order_request_events', op: 'INSERT' | 'UPDATE', condition: string): Promise<void> {
  if (h.database.handle.kind === 'sqlite') {
    await sql.raw(`CREATE TRIGGER ${name} BEFORE ${op} ON ${table} WHEN ${condition} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`).execute(h.deps.db);
    return;
  }
  await sql.raw(`CREATE FUNCTION ${name}_fn() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF ${condition} THEN RAISE EXCEPTION 'injected failure'; END IF;
      RETURN NEW;
    END $$`).execute(h.deps.db);
  await sql.raw(`CREATE TRIGGER ${name} BEFORE ${op} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}_fn()`).execute(h.deps.db);
}
