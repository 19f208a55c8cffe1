import { sql, type SqlBool } from 'kysely';
import { visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import type { SalesOrderItemsTable, SalesOrdersTable, ShipmentsTable, VendorProductsTable } from '../shared/db/schema.js';
import type { Page } from '../shared/pagination.js';
import { type CatalogueProduct, searchTextOf } from './rules.js';

export type ProductRow = VendorProductsTable;
export type SalesOrderRow = SalesOrdersTable;
export type LineRow = SalesOrderItemsTable;
export type ShipmentRow = ShipmentsTable;

/** Rows per INSERT: under SQLite's bound-parameter limit for these widths. */
const CHUNK = 200;

export const findVendorProduct = (ex: Executor, id: string) =>
  ex.selectFrom('vendor_products').selectAll().where('id', '=', id).executeTakeFirst();

export async function productsByIds(ex: Executor, ids: Iterable<string>): Promise<Map<string, ProductRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await ex.selectFrom('vendor_products').selectAll().where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Catalogue search: every word must appear in the product's name, catalog number or vendor. */
export async function listProducts(ex: Executor, filter: { q?: string; vendor?: string }, page: Page) {
  let base = ex.selectFrom('vendor_products');
  for (const word of (filter.q ?? '').toLowerCase().split(/\s+/).filter(Boolean)) {
    // An explicit ESCAPE: SQLite has no default escape character, PostgreSQL's is the same backslash.
    base = base.where(sql<SqlBool>`search_text like ${`%${escapeLike(word)}%`} escape '\\'`);
  }
  if (filter.vendor !== undefined) base = base.where('vendor_name', '=', filter.vendor);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
    base.selectAll().orderBy('created_at').orderBy('id').limit(page.perPage).offset(page.offset).execute(),
  ]);
  return { total: Number(count.n), rows };
}

const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Inserts new products and updates existing ones (same vendor and catalog number) in place, keeping their ids,
 * so re-importing a price list is safe. Returns how many were created and updated.
 */
export async function upsertProducts(ex: Executor, products: CatalogueProduct[], now: string, newId: () => string): Promise<{ created: number; updated: number }> {
  let created = 0;
  let updated = 0;
  for (let i = 0; i < products.length; i += CHUNK) {
    const chunk = products.slice(i, i + CHUNK);
    const existing = await ex.selectFrom('vendor_products').select(['id', 'vendor_name', 'catalog_number'])
      .where((eb) => eb.or(chunk.map((p) => eb.and([eb('vendor_name', '=', p.vendor_name), eb('catalog_number', '=', p.catalog_number)]))))
      .execute();
    const idOf = new Map(existing.map((r) => [`${r.vendor_name}\u0000${r.catalog_number}`, r.id]));
    const inserts: ProductRow[] = [];
    for (const p of chunk) {
      const id = idOf.get(`${p.vendor_name}\u0000${p.catalog_number}`);
      if (id === undefined) {
        inserts.push({ id: newId(), ...p, search_text: searchTextOf(p), created_at: now, updated_at: now });
      } else {
        await ex.updateTable('vendor_products').set({ ...p, search_text: searchTextOf(p), updated_at: now }).where('id', '=', id).execute();
        updated++;
      }
    }
    if (inserts.length > 0) await ex.insertInto('vendor_products').values(inserts).execute();
    created += inserts.length;
  }
  return { created, updated };
}

export async function insertSalesOrder(ex: Executor, row: SalesOrderRow, lines: LineRow[]): Promise<void> {
  await ex.insertInto('sales_orders').values(row).execute();
  for (let i = 0; i < lines.length; i += CHUNK) await ex.insertInto('sales_order_items').values(lines.slice(i, i + CHUNK)).execute();
}

export const orderKeyExists = async (ex: Executor, key: string): Promise<boolean> =>
  (await ex.selectFrom('sales_orders').select('id').where('key', '=', key).executeTakeFirst()) !== undefined;

export async function listVisibleSalesOrders(ex: Executor, actor: Actor, filter: { labId?: string }, page: Page) {
  let base = ex.selectFrom('sales_orders').where('lab_id', 'in', visibleLabIds(ex, actor));
  if (filter.labId !== undefined) base = base.where('lab_id', '=', filter.labId);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
    base.selectAll().orderBy('created_at').orderBy('id').limit(page.perPage).offset(page.offset).execute(),
  ]);
  return { total: Number(count.n), rows };
}

export const findVisibleSalesOrder = (ex: Executor, actor: Actor, id: string) =>
  ex.selectFrom('sales_orders').selectAll().where('id', '=', id).where('lab_id', 'in', visibleLabIds(ex, actor)).executeTakeFirst();

export const findSalesOrder = (ex: Executor, id: string) => ex.selectFrom('sales_orders').selectAll().where('id', '=', id).executeTakeFirst();

export async function salesOrdersByIds(ex: Executor, ids: Iterable<string>): Promise<Map<string, SalesOrderRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await ex.selectFrom('sales_orders').selectAll().where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export const linesOfOrders = (ex: Executor, orderIds: string[]) =>
  orderIds.length === 0 ? Promise.resolve([] as LineRow[])
    : ex.selectFrom('sales_order_items').selectAll().where('sales_order_id', 'in', orderIds).orderBy('created_at').orderBy('id').execute();

/** The line, row-locked on PostgreSQL until the transaction ends (SQLite's write transactions are serial). */
export async function findLineForUpdate(ex: Executor, id: string): Promise<LineRow | undefined> {
  const q = ex.selectFrom('sales_order_items').selectAll().where('id', '=', id);
  return (isPostgres(ex) ? q.forUpdate() : q).executeTakeFirst();
}

export const findLine = (ex: Executor, id: string) => ex.selectFrom('sales_order_items').selectAll().where('id', '=', id).executeTakeFirst();

/** Open lines for operators, oldest first, optionally of some statuses. */
export async function listLines(ex: Executor, filter: { statuses?: string[] }, page: Page) {
  let base = ex.selectFrom('sales_order_items');
  if (filter.statuses && filter.statuses.length > 0) base = base.where('status', 'in', filter.statuses);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
    base.selectAll().orderBy('created_at').orderBy('id').limit(page.perPage).offset(page.offset).execute(),
  ]);
  return { total: Number(count.n), rows };
}

export const lineOfRequest = (ex: Executor, orderRequestId: string) =>
  ex.selectFrom('sales_order_items').select(['id', 'status']).where('order_request_id', '=', orderRequestId).executeTakeFirst();

export async function checkedOutRequests(ex: Executor, orderRequestIds: string[]): Promise<Set<string>> {
  if (orderRequestIds.length === 0) return new Set();
  const rows = await ex.selectFrom('sales_order_items').select('order_request_id').where('order_request_id', 'in', orderRequestIds).execute();
  return new Set(rows.map((r) => r.order_request_id));
}

/**
 * Changes a line only if its status is still `from`: two operators acting on one line at once cannot both win.
 */
export async function updateLine(ex: Executor, id: string, from: string, set: Partial<LineRow>): Promise<boolean> {
  const r = await ex.updateTable('sales_order_items').set(set).where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export const shipmentsOfLines = (ex: Executor, lineIds: string[]) =>
  lineIds.length === 0 ? Promise.resolve([] as ShipmentRow[])
    : ex.selectFrom('shipments').selectAll().where('sales_order_item_id', 'in', lineIds).orderBy('created_at').orderBy('id').execute();

export const findShipment = (ex: Executor, id: string) => ex.selectFrom('shipments').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertShipment(ex: Executor, row: ShipmentRow): Promise<void> {
  await ex.insertInto('shipments').values(row).execute();
}

/** Marks a shipment delivered only if it was not already: a second delivery of the same box is refused. */
export async function markDelivered(ex: Executor, id: string, at: string): Promise<boolean> {
  const r = await ex.updateTable('shipments').set({ delivered_at: at }).where('id', '=', id).where('delivered_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
